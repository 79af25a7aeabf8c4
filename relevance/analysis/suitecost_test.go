package analysis_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

const costModule = "example.com/m"

// costProfile is a CPU profile of the given project functions (each called
// from main.main) with samples 10 ms samples each and the given duration.
func costProfile(seconds float64, samples int64, funcs ...string) *profile.Profile {
	var stacks []proftest.Stack
	for _, f := range funcs {
		stacks = append(stacks, proftest.Stack{Frames: []string{"main.main", costModule + "." + f}, Nanos: samples * 10_000_000})
	}
	p := proftest.Profile(stacks...)
	p.DurationNanos = int64(seconds * 1e9)
	return p
}

// costDir writes the case as bare profiles: Slow covers a–d in 42 s,
// A covers a, b and B covers c, d in 1 s each. Algorithm 2 takes Slow
// alone; the cheapest suite with its coverage is A and B.
func costDir(t *testing.T) (app, micro string) {
	t.Helper()
	dir := t.TempDir()
	app = filepath.Join(dir, "app.pprof")
	proftest.WriteFile(t, app, costProfile(10, 200, "a", "b", "c", "d"))
	micro = filepath.Join(dir, "micro")
	require.NoError(t, os.Mkdir(micro, 0o755))
	proftest.WriteFile(t, filepath.Join(micro, "Slow.pprof"), costProfile(42, 100, "a", "b", "c", "d"))
	proftest.WriteFile(t, filepath.Join(micro, "A.pprof"), costProfile(1, 100, "a", "b"))
	proftest.WriteFile(t, filepath.Join(micro, "B.pprof"), costProfile(1, 100, "c", "d"))
	return app, micro
}

// Bare profiles carry their durations: a budget and the cost objective
// work without a manifest, and the report compares the suites' costs.
func TestRunCostsFromProfileDurations(t *testing.T) {
	app, micro := costDir(t)
	cfg := analysis.Config{App: []string{app}, Micro: []string{micro}, Modules: []string{costModule}}
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Empty(t, rep.Warnings)
	assert.Nil(t, rep.Selection, "costs alone select nothing")
	assert.Equal(t, []string{"Slow"}, rep.Suite.IDs())
	assert.Equal(t, &analysis.SuiteCost{
		Source:     analysis.CostSource{Kind: analysis.CostsFromProfiles},
		Algorithm2: 42, Algorithm2Size: 1, Cheapest: 2, CheapestSize: 2,
	}, rep.SuiteCost)
	assert.Equal(t, "each profile's recorded duration", rep.SuiteCost.Source.String())

	cfg.Select = analysis.SelectConfig{Budget: 10}
	rep, err = analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B"}, rep.Suite.IDs(), "Slow does not fit in 10 s")
	assert.Equal(t, 2.0, rep.Selection.TotalCost)
	assert.Equal(t, &analysis.SelectedCost{Objective: optimize.NodeCount, Budget: 10, Seconds: 2, Size: 2}, rep.SuiteCost.Selected,
		"the budget chose the suite: its cost is reported beside Algorithm 2's")

	// Another objective's suite is costed too: at a 1% MDE Slow alone
	// catches a +10% slowdown of every function (a quarter of it each: +8%).
	cfg.Select = analysis.SelectConfig{Objective: optimize.Caught, Caught: analysis.SensitivityConfig{DefaultMDE: 0.01}}
	rep, err = analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"Slow"}, rep.Suite.IDs())
	assert.Equal(t, &analysis.SelectedCost{Objective: optimize.Caught, Seconds: 42, Size: 1}, rep.SuiteCost.Selected)

	cfg.Select, cfg.Certify = analysis.SelectConfig{Objective: optimize.Cost}, true
	rep, err = analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B"}, rep.Suite.IDs())
	assert.Nil(t, rep.SuiteCost.Selected, "the cheapest suite's cost is already there")
	require.NotNil(t, rep.CostCertificate)
	assert.InDelta(t, 2, rep.CostCertificate.LowerBound, 1e-9, "LP: x_Slow + x_A ≥ 1 and x_Slow + x_B ≥ 1 at 42, 1, 1 s: optimum 2")
	assert.Equal(t, 42.0, rep.CostCertificate.Greedy)
	require.NotNil(t, rep.Certificate, "the size certificate is still given")
	assert.Equal(t, 1, rep.Certificate.Greedy)
}

// Costs come from the first source that has any: a costs file, then the
// manifest, then the profiles' durations.
func TestRunCostPrecedence(t *testing.T) {
	app, micro := costDir(t)
	withManifest := filepath.Join(filepath.Dir(micro), "collected")
	require.NoError(t, os.Mkdir(withManifest, 0o755))
	var entries []manifest.Entry
	for id, wall := range map[string]float64{"Slow": 30, "A": 20, "B": 20} {
		data, err := os.ReadFile(filepath.Join(micro, id+".pprof"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(withManifest, id+".pprof"), data, 0o644))
		entries = append(entries, manifest.Entry{ID: id, Package: costModule, Name: "Benchmark" + id, Status: manifest.StatusOK, Profile: id + ".pprof", WallSeconds: wall})
	}
	m := &manifest.Manifest{Version: manifest.SchemaVersion, Module: costModule, BenchTime: "1s", Benchmarks: entries}
	require.NoError(t, m.Write(withManifest))
	costsFile := filepath.Join(t.TempDir(), "costs.csv")
	require.NoError(t, os.WriteFile(costsFile, []byte("Slow,3\nA,2\nB,2\n"), 0o644))

	tests := []struct {
		name      string
		micro     string
		costs     string
		source    analysis.CostSource
		alg2, min float64
		want      []string // the cost objective's suite
		note      string   // the CostSourceNote, when the source was not named
	}{
		{"profile durations", micro, "", analysis.CostSource{Kind: analysis.CostsFromProfiles}, 42, 2, []string{"A", "B"},
			"benchmark costs taken from each profile's recorded duration"},
		{"the manifest before durations", withManifest, "",
			analysis.CostSource{Kind: analysis.CostsFromManifest, Files: []string{filepath.Join(withManifest, manifest.FileName)}}, 30, 30, []string{"Slow"},
			"benchmark costs taken from manifest " + filepath.Join(withManifest, manifest.FileName)},
		{"a costs file before the manifest", withManifest, costsFile,
			analysis.CostSource{Kind: analysis.CostsFromFile, Files: []string{costsFile}}, 3, 3, []string{"Slow"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := analysis.Run(context.Background(), analysis.Config{
				App: []string{app}, Micro: []string{tt.micro}, Modules: []string{costModule},
				Select: analysis.SelectConfig{Objective: optimize.Cost, CostsFile: tt.costs},
			})
			require.NoError(t, err)
			require.NotNil(t, rep.SuiteCost)
			assert.Equal(t, tt.source, rep.SuiteCost.Source)
			assert.Equal(t, tt.alg2, rep.SuiteCost.Algorithm2, "Algorithm 2's cost")
			assert.Equal(t, tt.min, rep.SuiteCost.Cheapest, "the cheapest cost")
			assert.Equal(t, tt.want, rep.Suite.IDs())
			if tt.note == "" {
				assert.Empty(t, rep.Warnings)
				return
			}
			require.Len(t, rep.Warnings, 1)
			assert.EqualError(t, rep.Warnings[0], tt.note)
			assert.True(t, analysis.IsNote(rep.Warnings[0]), "the source is information, not a caveat")
			var note *analysis.CostSourceNote
			require.ErrorAs(t, rep.Warnings[0], &note)
			assert.Equal(t, tt.source, note.Source)
		})
	}
}

// Profiles that record no duration give no costs: no comparison, and the
// cost objective is an input error naming the benchmarks.
func TestRunWithoutCosts(t *testing.T) {
	app, micro := costDir(t)
	for _, id := range []string{"Slow", "A", "B"} {
		p := costProfile(0, 100, map[string][]string{"Slow": {"a", "b", "c", "d"}, "A": {"a", "b"}, "B": {"c", "d"}}[id]...)
		proftest.WriteFile(t, filepath.Join(micro, id+".pprof"), p)
	}
	cfg := analysis.Config{App: []string{app}, Micro: []string{micro}, Modules: []string{costModule}}
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Nil(t, rep.SuiteCost)

	cfg.Select.Objective = optimize.Cost
	_, err = analysis.Run(context.Background(), cfg)
	assert.True(t, errors.Is(err, mbopt.ErrInput))
	assert.ErrorContains(t, err, "Plan.Costs: 3 benchmarks have no cost, which the cost objective needs: A, B, Slow")

	cfg.Select.DefaultCost = 1
	rep, err = analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, []string{"Slow"}, rep.Suite.IDs(), "equal costs: one benchmark is cheaper than two")
	assert.Equal(t, 1.0, rep.SuiteCost.Cheapest)
}
