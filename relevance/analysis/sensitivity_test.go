package analysis_test

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/sensitivity"
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
		assert.InDelta(t, f.MDE/f.Share, *f.DetectableSlowdown, 1e-12)
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

// The example module's committed profiles.
const (
	exampleApp    = "../../testdata/profiles/example/app.pprof"
	exampleMicro  = "../../testdata/profiles/example/micro"
	exampleModule = "example.com/tinytsdb"
)

// TestCaughtSuiteExample picks, on the example module, a suite that keeps
// what the whole suite catches at +10%, where the coverage-minimal suite
// catches less.
func TestCaughtSuiteExample(t *testing.T) {
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{exampleMicro}, Modules: []string{exampleModule}})
	require.NoError(t, err)
	benches, err := analysis.SensitivityBenchmarks(context.Background(), rep, nil)
	require.NoError(t, err)
	sel, err := sensitivity.Select(rep.Coverage.App, nil, benches, 0.10, 0, 0, nil)
	require.NoError(t, err)
	r, err := sensitivity.Compute(rep.Coverage.App, benches, sensitivity.Options{Slowdowns: []float64{0.10}, Suite: sel.IDs()})
	require.NoError(t, err)
	t.Logf("caught at +10%%: whole suite %.1f%%, %d picks %v %.1f%%", 100*r.Caught[0].AppShare, len(sel.Picks), sel.IDs(), 100*r.SuiteCaught[0].AppShare)
	assert.InDelta(t, r.Caught[0].AppShare, r.SuiteCaught[0].AppShare, 1e-9)
	assert.Less(t, len(sel.Picks), len(benches))
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
