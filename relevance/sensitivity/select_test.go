package sensitivity_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/sensitivity"
)

func TestSelect(t *testing.T) {
	app, issue := issueModule()
	same := graph("instructions", map[string]float64{"m.Hash": 1})
	for _, tc := range []struct {
		name     string
		benches  []sensitivity.Benchmark
		cost     map[string]float64
		want     []string
		caught   float64
		slowdown float64
	}{
		{"largest caught share first", issue, nil, []string{"m.BenchmarkServe", "m.BenchmarkHash"}, 0.6, 0},
		{"the precise benchmark, not the noisy one of the same coverage", []sensitivity.Benchmark{
			{ID: "m.BenchmarkNoisy", Profile: same, MDE: 0.11},
			{ID: "m.BenchmarkPrecise", Profile: graph("instructions", map[string]float64{"m.Hash": 1, "m.Serve": 1}), MDE: 0.003},
		}, nil, []string{"m.BenchmarkPrecise"}, 0.3, 0},
		{"tie: the smaller MDE", []sensitivity.Benchmark{{ID: "m.A", Profile: same, MDE: 0.004}, {ID: "m.B", Profile: same, MDE: 0.002}}, nil, []string{"m.B"}, 0.2, 0},
		{"tie: the cheaper", []sensitivity.Benchmark{{ID: "m.A", Profile: same}, {ID: "m.B", Profile: same}}, map[string]float64{"m.A": 2, "m.B": 1}, []string{"m.B"}, 0.2, 0},
		{"tie: a known cost", []sensitivity.Benchmark{{ID: "m.A", Profile: same}, {ID: "m.B", Profile: same}}, map[string]float64{"m.B": 5}, []string{"m.B"}, 0.2, 0},
		{"tie: the smaller id", []sensitivity.Benchmark{{ID: "m.B", Profile: same}, {ID: "m.A", Profile: same}}, nil, []string{"m.A"}, 0.2, 0},
		{"at +500% Parse is caught too", issue, nil, []string{"m.BenchmarkServe", "m.BenchmarkHash"}, 1.0, 5},
		{"nothing caught", []sensitivity.Benchmark{{ID: "m.A", Profile: same, MDE: 0.5}}, nil, []string{}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := sensitivity.Select(app, nil, tc.benches, tc.slowdown, 0, 1e-9, tc.cost)
			require.NoError(t, err)
			assert.Equal(t, tc.want, sel.IDs())
			assert.InDelta(t, tc.caught, sel.Caught, 1e-12)
			// The picks catch what the whole suite catches.
			r, err := sensitivity.Compute(app, tc.benches, sensitivity.Options{Slowdowns: []float64{sel.Slowdown}, Suite: sel.IDs(), Threshold: 1e-9})
			require.NoError(t, err)
			assert.InDelta(t, r.Caught[0].AppShare, r.SuiteCaught[0].AppShare, 1e-12)
			assert.InDelta(t, r.Caught[0].AppShare, sel.Caught, 1e-12)
		})
	}
}

func TestSelectErrors(t *testing.T) {
	app, _ := issueModule()
	_, err := sensitivity.Select(&callgraph.Graph{}, nil, nil, 0, 0, 0, nil)
	assert.ErrorContains(t, err, "the application profile has no samples")
	_, err = sensitivity.Select(app, nil, []sensitivity.Benchmark{{ID: "m.X", Profile: &callgraph.Graph{}}}, 0, 0, 0, nil)
	assert.ErrorContains(t, err, "benchmark m.X: its profile has no samples")
}
