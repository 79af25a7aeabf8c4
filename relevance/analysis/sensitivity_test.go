package analysis_test

import (
	"context"
	"errors"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/sensitivity"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// TestSensitivityExample computes the detectable slowdowns of the example
// module's functions from its CPU profiles: every project function with
// a share is listed, a covered function is caught at MDE / share of its
// best benchmark, an uncovered one never, the curves grow with the
// slowdown, and the minimal suite catches no more than the whole suite.
func TestSensitivityExample(t *testing.T) {
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{exampleMicro}, Modules: []string{exampleModule}})
	require.NoError(t, err)
	some := slices.Sorted(maps.Keys(rep.Profiles))[0] // one measured MDE
	r, err := analysis.Sensitivity(context.Background(), rep, map[string]float64{some: 0.01}, sensitivity.Options{})
	require.NoError(t, err)
	assert.Equal(t, "seconds", r.Source)
	assert.Equal(t, sensitivity.CPUMDE, r.DefaultMDE)
	assert.Equal(t, 1, r.Measured)
	require.NotEmpty(t, r.Functions)
	covered, never := 0, 0
	for _, f := range r.Functions {
		id, ok := rep.Coverage.App.Lookup(f.Function)
		require.True(t, ok, f.Function)
		assert.True(t, rep.Coverage.App.Nodes[id].Project, "%s is a project function", f.Function)
		if f.DetectableSlowdown == nil {
			never++
			continue
		}
		covered++
		assert.True(t, rep.Coverage.Covered.Has(id), "%s is caught, so some benchmark covers it", f.Function)
		assert.InDelta(t, f.Effect/f.Share, *f.DetectableSlowdown, 1e-12)
	}
	assert.Positive(t, covered)
	t.Logf("%d project functions: %d caught at some slowdown, %d never; caught curve %+v, minimal suite %+v", len(r.Functions), covered, never, r.Caught, r.SuiteCaught)
	require.Len(t, r.SuiteCaught, len(r.Caught))
	for i := range r.Caught {
		assert.LessOrEqual(t, r.SuiteCaught[i].AppShare, r.Caught[i].AppShare+1e-12)
		if i > 0 {
			assert.GreaterOrEqual(t, r.Caught[i].AppShare, r.Caught[i-1].AppShare)
		}
	}
	for i := 1; i < len(r.Recommendations); i++ {
		assert.GreaterOrEqual(t, r.Recommendations[i-1].Unnoticed, r.Recommendations[i].Unnoticed)
	}
}

func TestSensitivityErrors(t *testing.T) {
	for _, mde := range []float64{-0.1, 1, math.NaN()} {
		_, err := analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{exampleMicro}, Modules: []string{exampleModule},
			Sensitivity: &analysis.SensitivityConfig{DefaultMDE: mde}})
		assert.ErrorIs(t, err, mbopt.ErrInput)
		assert.ErrorContains(t, err, "Sensitivity.DefaultMDE")
	}
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{exampleMicro}, Modules: []string{exampleModule},
		Sensitivity: &analysis.SensitivityConfig{DefaultMDE: 0.02, MDEs: map[string]float64{"example.com/none.BenchmarkX": 0.01}}})
	require.NoError(t, err)
	require.NotNil(t, rep.Sensitivity)
	assert.Equal(t, 0.02, rep.Sensitivity.DefaultMDE)
	assert.Zero(t, rep.Sensitivity.Measured, "an MDE of a benchmark the analysis does not have is ignored")
}

// TestSensitivityReadsAsCoverage: the detectable slowdowns and the caught
// objective read the benchmark profiles again as the coverage read them.
// A directory of instruction profiles without a manifest (the example's
// benchmarks rewritten by proftest.Instructions), which AllowNonCPU lets
// the coverage read, failed both with "not a CPU profile" before: they
// took AllowNonCPU only from a manifest's source instructions. Their
// shares are the CPU profiles' (an instruction a thousandth of a
// nanosecond), so at one MDE the caught curves are the CPU profiles'.
func TestSensitivityReadsAsCoverage(t *testing.T) {
	instr := t.TempDir()
	micro, err := filepath.Glob(filepath.Join(exampleMicro, "*.pprof"))
	require.NoError(t, err)
	for _, m := range micro {
		proftest.Instructions(t, m, filepath.Join(instr, filepath.Base(m)))
	}
	run := func(t *testing.T, micro string, allowNonCPU bool, obj optimize.Objective) (*analysis.Report, error) {
		return analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{micro}, Modules: []string{exampleModule},
			AllowNonCPU: allowNonCPU, Select: analysis.SelectConfig{Objective: obj, Caught: analysis.SensitivityConfig{DefaultMDE: 0.01}},
			Sensitivity: &analysis.SensitivityConfig{DefaultMDE: 0.01}})
	}
	cpu, err := run(t, exampleMicro, false, optimize.Caught)
	require.NoError(t, err)
	for _, tc := range []struct {
		name        string
		micro       string
		allowNonCPU bool
		objective   optimize.Objective
		source      string // the sensitivity's
	}{
		{"instruction profiles, no manifest", instr, true, optimize.NodeCount, "instructions"},
		{"instruction profiles, no manifest, caught objective", instr, true, optimize.Caught, "instructions"},
		{"CPU profiles under AllowNonCPU", exampleMicro, true, optimize.Caught, "seconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := run(t, tc.micro, tc.allowNonCPU, tc.objective)
			require.NoError(t, err)
			assert.Len(t, rep.Profiles, len(micro), "every benchmark analysed")
			require.NotNil(t, rep.Sensitivity)
			assert.Equal(t, tc.source, rep.Sensitivity.Source)
			require.Len(t, rep.Sensitivity.Caught, len(cpu.Sensitivity.Caught))
			for i, p := range rep.Sensitivity.Caught {
				assert.InDelta(t, cpu.Sensitivity.Caught[i].AppShare, p.AppShare, 1e-9, "caught at %+.1f%%", 100*p.Slowdown)
			}
			if tc.objective == optimize.Caught {
				require.NotNil(t, rep.Caught)
				assert.InDelta(t, cpu.Caught.Suite, rep.Caught.Suite, 1e-9)
				assert.Equal(t, cpu.Suite.IDs(), rep.Suite.IDs())
			}
		})
	}
	// Without AllowNonCPU the coverage skips the instruction profiles, so
	// nothing is left to weigh.
	_, err = run(t, instr, false, optimize.NodeCount)
	require.Error(t, err)
	assert.ErrorContains(t, err, "not a CPU profile")
}

// The example module's committed profiles.
const (
	exampleApp    = "../../testdata/profiles/example/app.pprof"
	exampleMicro  = "../../testdata/profiles/example/micro"
	exampleModule = "example.com/tinytsdb"
)

// TestCaughtSuiteExample picks, on the example module, a suite that keeps
// what the whole suite catches at +10% (the caught objective), where the
// coverage-minimal suite catches less; its certificate bounds the
// smallest suite that catches as much.
func TestCaughtSuiteExample(t *testing.T) {
	run := func(obj optimize.Objective) *analysis.Report {
		rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{exampleMicro}, Modules: []string{exampleModule},
			Select: analysis.SelectConfig{Objective: obj}, Certify: true, Sensitivity: &analysis.SensitivityConfig{}})
		require.NoError(t, err)
		return rep
	}
	caught, nodes := run(optimize.Caught), run(optimize.NodeCount)
	require.NotNil(t, caught.Caught)
	assert.Nil(t, nodes.Caught)
	c := caught.Caught
	t.Logf("caught at +10%%: whole suite %.1f%%; caught objective %d picks %v %.1f%%; nodes objective %d picks %.1f%%",
		100*c.Whole, len(caught.Suite.Steps), caught.Suite.IDs(), 100*c.Suite, len(nodes.Suite.Steps), 100*nodes.Sensitivity.SuiteCaught[2].AppShare)
	assert.InDelta(t, c.Whole, c.Suite, 1e-12, "the caught suite keeps what the whole suite catches")
	assert.InDelta(t, caught.Sensitivity.CaughtAt(0.10), c.Whole, 1e-12, "the curve and the relation agree")
	assert.InDelta(t, c.Whole, caught.Sensitivity.SuiteCaught[2].AppShare, 1e-12)
	assert.Less(t, nodes.Sensitivity.SuiteCaught[2].AppShare, c.Whole-0.01, "Algorithm 2's suite loses detectability")
	assert.Less(t, len(caught.Suite.Steps), len(caught.Coverage.Sets))
	assert.Equal(t, optimize.Caught, caught.Selection.Objective)
	// The steps record coverage, the gains the shares caught.
	last := caught.Suite.Steps[len(caught.Suite.Steps)-1]
	assert.Equal(t, last.CumulativeProject.Covered, caught.Selection.Covered.IntersectionLen(caught.Coverage.ProjectMask))
	assert.InDelta(t, c.Suite, caught.Selection.TotalGain, 1e-12)
	require.NotNil(t, caught.Certificate)
	assert.Equal(t, len(caught.Suite.Steps), caught.Certificate.Greedy)
	assert.LessOrEqual(t, caught.Certificate.LowerBound, caught.Certificate.Greedy)
}

// options are the command line's defaults with objective, measured MDEs
// and the default MDE mde.
func options(objective string, mdes map[string]float64, mde float64) analysis.Options {
	return analysis.Options{Nodes: "project", Impact: "attributed", Targets: "callable", Edges: "sampled", Objective: objective, MDEs: mdes, MDE: mde}
}

// TestDefaultObjective: measured MDEs make the caught objective the
// default; a named objective stays.
func TestDefaultObjective(t *testing.T) {
	measured := map[string]float64{"example.com/m.BenchmarkX": 0.002}
	for _, tc := range []struct {
		name      string
		objective string
		mdes      map[string]float64
		want      optimize.Objective
	}{
		{"no measurements: Algorithm 2", "", nil, optimize.NodeCount},
		{"measurements: caught", "", measured, optimize.Caught},
		{"a named objective stays", "nodes", measured, optimize.NodeCount},
		{"caught without measurements", "caught", nil, optimize.Caught},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := options(tc.objective, tc.mdes, 0).Config(false)
			require.NoError(t, err)
			assert.Equal(t, tc.want, cfg.Select.Objective)
			assert.Equal(t, tc.mdes, cfg.Select.Caught.MDEs)
		})
	}
	_, err := options("nodes", nil, 0.01).Config(false)
	assert.ErrorContains(t, err, "Sensitivity.DefaultMDE is the typical minimum detectable effect of the detectable slowdowns and of Config.Select.Objective caught")
	_, err = analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{exampleMicro},
		Select: analysis.SelectConfig{Objective: optimize.Caught, Caught: analysis.SensitivityConfig{DefaultMDE: 2}}})
	assert.ErrorContains(t, err, "Select.Caught.DefaultMDE 2: give a fraction between 0 and 1")
}

// TestSensitivityTargets: with callable targets the sensitivity
// recommendations name what Algorithm 3's would, by its own rules: on the
// example, UnmarshalTimestamps's closure (3.5% of the application) is
// folded into it, no closure is recommended on its own, and the
// negligible targets come last.
func TestSensitivityTargets(t *testing.T) {
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{exampleMicro}, Modules: []string{exampleModule},
		Targets: recommend.Callable, Sensitivity: &analysis.SensitivityConfig{}})
	require.NoError(t, err)
	recs := rep.Sensitivity.Recommendations
	require.NotEmpty(t, recs)
	byName := map[string]sensitivity.Recommendation{}
	negligible := false
	for _, r := range recs {
		byName[r.Function.Function] = r
		assert.NotContains(t, r.Function.Function, ".func", "a closure is folded into its function")
		assert.False(t, negligible && !r.Negligible, "%s: the negligible targets come last", r.Function.Function)
		negligible = negligible || r.Negligible
	}
	ts := byName[exampleModule+"/encoding.UnmarshalTimestamps"]
	assert.Contains(t, ts.Members, exampleModule+"/encoding.UnmarshalTimestamps.func1")
	share := map[string]float64{}
	for _, f := range rep.Sensitivity.Functions {
		share[f.Function] = f.AppShare
	}
	sum := 0.0
	for _, m := range ts.Members {
		sum += share[m]
	}
	assert.InDelta(t, sum, ts.Unnoticed, 1e-12, "the unnoticed share of it and its closure")
	assert.Greater(t, ts.Unnoticed, share[exampleModule+"/encoding.UnmarshalTimestamps"])
}

// TestMDEHistory: the report names the history the MDEs in use came from
// (the detectable slowdowns', else the caught objective's when it chose
// the suite), and carries the warning of one that could not be read.
func TestMDEHistory(t *testing.T) {
	mdes := map[string]float64{"encoding__BenchmarkDecode": 0.01}
	unread := errors.New("h.db: not an mbopt history database")
	for _, tc := range []struct {
		name    string
		sens    *analysis.SensitivityConfig
		sel     analysis.SelectConfig
		history string
		warned  bool
	}{
		{"sensitivity", &analysis.SensitivityConfig{MDEs: mdes, History: "h.db"}, analysis.SelectConfig{}, "h.db", false},
		{"nothing measured", &analysis.SensitivityConfig{History: "h.db"}, analysis.SelectConfig{}, "", false},
		{"unreadable", &analysis.SensitivityConfig{HistoryWarning: unread}, analysis.SelectConfig{}, "", true},
		{"caught objective", nil, analysis.SelectConfig{Objective: optimize.Caught, Caught: analysis.SensitivityConfig{MDEs: mdes, History: "h.db"}}, "h.db", false},
		{"objective not caught", nil, analysis.SelectConfig{Caught: analysis.SensitivityConfig{MDEs: mdes, History: "h.db", HistoryWarning: unread}}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{exampleMicro}, Modules: []string{exampleModule},
				Sensitivity: tc.sens, Select: tc.sel})
			require.NoError(t, err)
			assert.Equal(t, tc.history, rep.MDEHistory)
			var w *analysis.MDEHistoryWarning
			assert.Equal(t, tc.warned, errors.As(errors.Join(rep.Warnings...), &w))
			if tc.warned {
				assert.ErrorIs(t, w, unread)
				assert.False(t, analysis.IsNote(w), "a caveat")
				assert.EqualError(t, w, "h.db: not an mbopt history database; the benchmarks' minimum detectable effects are the typical value")
			}
		})
	}
}
