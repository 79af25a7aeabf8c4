package optimize_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/optimize"
)

// The Caught objective's order: the larger gain, then the smaller MDE,
// then the cheaper (a known cost first), then the smaller id; never the
// graph size or the node count that break other objectives' ties.
func TestSelectCaughtTies(t *testing.T) {
	app := map[string]int64{"p.a": 10, "p.b": 10, "p.c": 1, "p.d": 1}
	for _, tt := range []struct {
		name    string
		benches map[string][]string
		plan    optimize.Plan
		want    []string
	}{
		{"the larger gain first, whatever MDE and cost", map[string][]string{"X": {"p.a"}, "Y": {"p.a", "p.c"}},
			optimize.Plan{MDEs: map[string]float64{"X": 0.001, "Y": 0.01}, Costs: map[string]float64{"X": 1, "Y": 9}}, []string{"Y"}},
		{"equal gain: the smaller MDE", map[string][]string{"X": {"p.a"}, "Y": {"p.b"}},
			optimize.Plan{MDEs: map[string]float64{"X": 0.004, "Y": 0.002}}, []string{"Y", "X"}},
		{"equal gain: the smaller MDE before the cheaper", map[string][]string{"X": {"p.a"}, "Y": {"p.b"}},
			optimize.Plan{MDEs: map[string]float64{"X": 0.004, "Y": 0.002}, Costs: map[string]float64{"X": 1, "Y": 9}}, []string{"Y", "X"}},
		{"equal gain: a known MDE first", map[string][]string{"X": {"p.a"}, "Y": {"p.b"}},
			optimize.Plan{MDEs: map[string]float64{"Y": 0.05}}, []string{"Y", "X"}},
		{"equal gain and MDE: the cheaper", map[string][]string{"X": {"p.a"}, "Y": {"p.b"}},
			optimize.Plan{MDEs: map[string]float64{"X": 0.01, "Y": 0.01}, Costs: map[string]float64{"X": 2, "Y": 1}}, []string{"Y", "X"}},
		{"equal gain and MDE: a known cost first", map[string][]string{"X": {"p.a"}, "Y": {"p.b"}},
			optimize.Plan{Costs: map[string]float64{"Y": 5}}, []string{"Y", "X"}},
		{"full tie: the smaller id, not the smaller graph", map[string][]string{"Y": {"p.a"}, "X": {"p.b", "q.filler", "q.more"}},
			optimize.Plan{}, []string{"X", "Y"}},
		{"full tie: not the one with more nodes", map[string][]string{"X": {"p.a"}, "Y": {"p.b", "p.d"}},
			optimize.Plan{Weights: []float64{}}, []string{"X", "Y"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cov := instance(t, app, tt.benches)
			plan := tt.plan
			plan.Objective = optimize.Caught
			if plan.Weights != nil {
				// p.d weighs nothing: Y's gain equals X's though Y adds a node more.
				plan.Weights = make([]float64, cov.App.Len())
				for i, n := range cov.App.Nodes {
					plan.Weights[i] = map[string]float64{"p.a": 0.5, "p.b": 0.5}[n.Name]
				}
			}
			sel, err := optimize.Select(cov, plan)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.IDs())
			assert.Equal(t, optimize.Caught, sel.Objective)
		})
	}
}

func TestSelectCaughtErrors(t *testing.T) {
	cov := instance(t, map[string]int64{"p.a": 1}, map[string][]string{"A": {"p.a"}, "B": {"p.a"}})
	_, err := optimize.Select(cov, optimize.Plan{Objective: optimize.Caught, MDEs: map[string]float64{"B": math.NaN(), "A": -1}})
	assert.EqualError(t, err, "Plan.MDEs: 2 MDEs are not a finite fraction >= 0: A (-1), B (NaN)")
}

// Trace records a given suite as Greedy records its picks; the
// certificate of a given suite size bounds the same instance.
func TestTraceAndCertifySuite(t *testing.T) {
	cov := instance(t, map[string]int64{"p.a": 1, "p.b": 1, "p.c": 5}, map[string][]string{"A": {"p.a", "p.b"}, "B": {"p.b", "p.c"}, "C": {"p.c"}})
	g := optimize.Greedy(cov, optimize.Options{})
	tr, err := optimize.Trace(cov, g.IDs(), optimize.Options{})
	require.NoError(t, err)
	assert.Equal(t, g, tr, "tracing Greedy's picks records them as Greedy does")
	tr, err = optimize.Trace(cov, []string{"C", "A"}, optimize.Options{})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, []int{tr.Steps[0].Added, tr.Steps[1].Added})
	assert.Equal(t, 3, tr.Steps[1].CumulativeProject.Covered)
	_, err = optimize.Trace(cov, []string{"A", "Z"}, optimize.Options{})
	assert.EqualError(t, err, `optimize.Trace: benchmark "Z" is not among the coverage sets`)
	_, err = optimize.Trace(cov, []string{"A", "A"}, optimize.Options{})
	assert.EqualError(t, err, `optimize.Trace: benchmark "A" is repeated`)

	c, err := optimize.Certify(cov, optimize.CertifyOptions{Suite: 3})
	require.NoError(t, err)
	assert.Equal(t, 3, c.Greedy)
	assert.Equal(t, 2, c.LowerBound)
	assert.Equal(t, 1, c.Gap())
}
