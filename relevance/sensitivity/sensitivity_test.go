package sensitivity_test

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/sensitivity"
)

// graph returns a graph of flat values by function name, in unit.
func graph(unit string, flat map[string]float64) *callgraph.Graph {
	g := &callgraph.Graph{Unit: unit}
	for name, v := range flat {
		g.Nodes = append(g.Nodes, callgraph.Node{Name: name, Flat: v, Project: name[0] == 'm'})
		g.Total += v
	}
	slices.SortFunc(g.Nodes, func(a, b callgraph.Node) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return g
}

// The issue's module: Parse takes 40% of the application but 0.1% of the
// only benchmark that runs it; Hash is its benchmark's whole work.
func issueModule() (*callgraph.Graph, []sensitivity.Benchmark) {
	app := graph("seconds", map[string]float64{"m.Parse": 40, "m.Hash": 20, "m.Serve": 10, "runtime.mallocgc": 30})
	return app, []sensitivity.Benchmark{
		{ID: "m.BenchmarkHash", Profile: graph("instructions", map[string]float64{"m.Hash": 1000})},
		{ID: "m.BenchmarkServe", Profile: graph("instructions", map[string]float64{"m.Parse": 1, "m.Serve": 499, "runtime.mallocgc": 500})},
	}
}

func TestComputeIssueModule(t *testing.T) {
	app, benches := issueModule()
	r, err := sensitivity.Compute(app, benches, sensitivity.Options{})
	require.NoError(t, err)
	assert.Equal(t, "instructions", r.Source)
	assert.Equal(t, sensitivity.InstructionsMDE, r.DefaultMDE)
	byName := map[string]sensitivity.Function{}
	for _, f := range r.Functions {
		byName[f.Function] = f
	}
	hash, parse := byName["m.Hash"], byName["m.Parse"]
	require.NotNil(t, hash.DetectableSlowdown)
	require.NotNil(t, parse.DetectableSlowdown)
	assert.InDelta(t, 0.015, *hash.DetectableSlowdown, 1e-12, "(threshold 1% + MDE 0.5%) / share 100%")
	assert.LessOrEqual(t, *hash.DetectableSlowdown, 0.05)
	assert.InDelta(t, 15.0, *parse.DetectableSlowdown, 1e-9, "1.5% / 0.1% = +1500%")
	assert.GreaterOrEqual(t, *parse.DetectableSlowdown, 0.5)
	assert.Equal(t, "m.BenchmarkServe", parse.Benchmark)
	assert.InDelta(t, 0.001, parse.Share, 1e-12)
	require.NotEmpty(t, r.Recommendations)
	assert.Equal(t, "m.Parse", r.Recommendations[0].Function.Function, "the first recommendation is the function the suite misses")
	assert.InDelta(t, 0.4, r.Recommendations[0].Unnoticed, 1e-12)
	// At 10%: Hash (1.5%: 20%), Serve (1.5%/49.9% = 3.006%: 10%) and
	// mallocgc (1.5%/50% = 3%: 30%) are caught; Parse (40%) is not. At
	// 1%, none: even Hash, its benchmark's whole work, needs +1.5%.
	assert.InDelta(t, 0.6, r.CaughtAt(0.10), 1e-12)
	assert.Equal(t, []sensitivity.Point{{0.01, 0}, {0.05, 0.6}, {0.10, 0.6}, {0.50, 0.6}}, roundPoints(r.Caught))
}

// TestComputeTable checks the detectable slowdown (threshold + MDE_b) /
// share_b(f), minimised over the benchmarks: the threshold adds to the
// MDE whichever is larger, since a definite verdict needs the whole
// interval (one MDE either side of the change) beyond the threshold.
func TestComputeTable(t *testing.T) {
	app := graph("seconds", map[string]float64{"m.A": 50, "m.B": 30, "m.C": 20})
	one := graph("instructions", map[string]float64{"m.A": 50, "m.B": 50})
	two := graph("instructions", map[string]float64{"m.A": 90, "m.B": 10})
	cpu := graph("seconds", map[string]float64{"m.A": 1})
	for _, tc := range []struct {
		name    string
		benches []sensitivity.Benchmark
		opt     sensitivity.Options
		want    map[string]float64 // detectable slowdown; -1: never
		first   map[string]string  // the benchmark that catches it first
		source  string
		mde     float64
	}{
		{"default MDE, best benchmark wins", []sensitivity.Benchmark{{ID: "one", Profile: one}, {ID: "two", Profile: two}}, sensitivity.Options{},
			map[string]float64{"m.A": (0.01 + 0.005) / 0.9, "m.B": (0.01 + 0.005) / 0.5, "m.C": -1}, map[string]string{"m.A": "two", "m.B": "one"}, "instructions", 0.005},
		{"measured MDE changes the winner", []sensitivity.Benchmark{{ID: "one", Profile: one, MDE: 0.001}, {ID: "two", Profile: two, MDE: 0.01}}, sensitivity.Options{},
			map[string]float64{"m.A": (0.01 + 0.001) / 0.5, "m.B": (0.01 + 0.001) / 0.5, "m.C": -1}, map[string]string{"m.A": "one", "m.B": "one"}, "instructions", 0.005},
		{"tie broken by id", []sensitivity.Benchmark{{ID: "z", Profile: one}, {ID: "a", Profile: one}}, sensitivity.Options{},
			map[string]float64{"m.A": 0.03, "m.B": 0.03, "m.C": -1}, map[string]string{"m.A": "a", "m.B": "a"}, "instructions", 0.005},
		{"CPU profiles: the CPU default", []sensitivity.Benchmark{{ID: "cpu", Profile: cpu}}, sensitivity.Options{},
			map[string]float64{"m.A": 0.01 + 0.05, "m.B": -1, "m.C": -1}, map[string]string{"m.A": "cpu"}, "seconds", 0.05},
		{"given default MDE", []sensitivity.Benchmark{{ID: "one", Profile: one}}, sensitivity.Options{DefaultMDE: 0.02},
			map[string]float64{"m.A": (0.01 + 0.02) / 0.5, "m.B": (0.01 + 0.02) / 0.5, "m.C": -1}, map[string]string{"m.A": "one", "m.B": "one"}, "instructions", 0.02},
		// MDE 0.1% under a 2% threshold: (2% + 0.1%) / 50%, not 2% / 50%.
		{"an MDE below the threshold adds to it", []sensitivity.Benchmark{{ID: "one", Profile: one, MDE: 0.001}}, sensitivity.Options{Threshold: 0.02},
			map[string]float64{"m.A": 0.042, "m.B": 0.042, "m.C": -1}, map[string]string{"m.A": "one", "m.B": "one"}, "instructions", 0.005},
		// MDE 3% over a 1% threshold: (1% + 3%) / 50%, not 3% / 50%.
		{"an MDE above the threshold has it added", []sensitivity.Benchmark{{ID: "one", Profile: one, MDE: 0.03}}, sensitivity.Options{Threshold: 0.01},
			map[string]float64{"m.A": 0.08, "m.B": 0.08, "m.C": -1}, map[string]string{"m.A": "one", "m.B": "one"}, "instructions", 0.005},
		{"no benchmark", nil, sensitivity.Options{},
			map[string]float64{"m.A": -1, "m.B": -1, "m.C": -1}, nil, "instructions", 0.005},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := sensitivity.Compute(app, tc.benches, tc.opt)
			require.NoError(t, err)
			assert.Equal(t, tc.source, r.Source)
			assert.Equal(t, tc.mde, r.DefaultMDE)
			for _, f := range r.Functions {
				want := tc.want[f.Function]
				if want < 0 {
					assert.Nil(t, f.DetectableSlowdown, f.Function)
					assert.Empty(t, f.Benchmark, f.Function)
					continue
				}
				require.NotNil(t, f.DetectableSlowdown, f.Function)
				assert.InDelta(t, want, *f.DetectableSlowdown, 1e-12, f.Function)
				assert.Equal(t, tc.first[f.Function], f.Benchmark, f.Function)
				assert.InDelta(t, *f.DetectableSlowdown, f.Effect/f.Share, 1e-12, "%s: the effective effect used over the share", f.Function)
				assert.InDelta(t, f.Effect, f.MDE+r.Threshold, 1e-12, "%s: the threshold plus the MDE (the issue's JSON mde is the benchmark's own)", f.Function)
			}
		})
	}
}

func TestComputeOrderAndSuite(t *testing.T) {
	app, benches := issueModule()
	r, err := sensitivity.Compute(app, benches, sensitivity.Options{Suite: []string{"m.BenchmarkHash"},
		Functions: func(n *callgraph.Node) bool { return n.Project }})
	require.NoError(t, err)
	var names []string
	for _, f := range r.Functions {
		names = append(names, f.Function)
	}
	assert.Equal(t, []string{"m.Parse", "m.Hash", "m.Serve"}, names, "project functions by application share")
	// The sub-suite of BenchmarkHash alone catches only Hash.
	require.Len(t, r.SuiteCaught, 4)
	assert.InDelta(t, 0.2, r.SuiteCaught[2].AppShare, 1e-12)
	assert.InDelta(t, 0.6, r.Caught[2].AppShare, 1e-12)
	for _, rec := range r.Recommendations {
		assert.False(t, rec.Caught(r.RecommendSlowdown), rec.Function.Function)
	}
}

func TestComputeErrors(t *testing.T) {
	app, _ := issueModule()
	for _, tc := range []struct {
		name    string
		app     *callgraph.Graph
		benches []sensitivity.Benchmark
		want    string
	}{
		{"empty application", &callgraph.Graph{}, nil, "the application profile has no samples"},
		{"empty benchmark", app, []sensitivity.Benchmark{{ID: "m.BenchmarkX", Profile: &callgraph.Graph{}}}, "benchmark m.BenchmarkX: its profile has no samples"},
		{"negative MDE", app, []sensitivity.Benchmark{{ID: "m.BenchmarkX", Profile: graph("instructions", map[string]float64{"m.A": 1}), MDE: -1}}, "MDE -1 is not a fraction"},
		{"NaN MDE", app, []sensitivity.Benchmark{{ID: "m.BenchmarkX", Profile: graph("instructions", map[string]float64{"m.A": 1}), MDE: math.NaN()}}, "is not a fraction"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sensitivity.Compute(tc.app, tc.benches, sensitivity.Options{})
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

// roundPoints rounds the shares of ps to 1e-9.
func roundPoints(ps []sensitivity.Point) []sensitivity.Point {
	out := slices.Clone(ps)
	for i := range out {
		out[i].AppShare = math.Round(out[i].AppShare*1e9) / 1e9
	}
	return out
}
