package optimize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/optimize"
)

// Excluded benchmarks are never picked: the others take their place where
// they can, and what only an excluded one covers stays uncovered.
func TestExclude(t *testing.T) {
	cov := instance(t,
		map[string]int64{"p.a": 10, "p.b": 10, "p.c": 10, "p.d": 10, "x.e": 10},
		map[string][]string{
			"big":   {"p.a", "p.b", "p.c"},
			"left":  {"p.a", "p.b"},
			"right": {"p.c"},
			"only":  {"p.d", "x.e"},
		})
	budget := map[string]float64{"big": 1, "left": 1, "right": 1, "only": 1}
	for _, tc := range []struct {
		name    string
		exclude []string
		plan    optimize.Plan
		want    []string
	}{
		{"none", nil, optimize.Plan{}, []string{"big", "only"}},
		{"a replaceable benchmark", []string{"big"}, optimize.Plan{}, []string{"left", "right", "only"}},
		{"the only cover of a node", []string{"only"}, optimize.Plan{}, []string{"big"}},
		{"unknown ids are ignored", []string{"nope"}, optimize.Plan{}, []string{"big", "only"}},
		{"impact objective", []string{"big"}, optimize.Plan{Objective: optimize.Impact}, []string{"left", "right", "only"}},
		{"cost objective", []string{"big"}, optimize.Plan{Objective: optimize.Cost, Costs: budget}, []string{"left", "right", "only"}},
		{"budget", []string{"big"}, optimize.Plan{Budget: 2, Costs: budget}, []string{"left", "right"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := tc.plan
			plan.Exclude = tc.exclude
			sel, err := optimize.Select(cov, plan)
			require.NoError(t, err)
			assert.Equal(t, tc.want, sel.Result().IDs())
			if plan.Objective == optimize.NodeCount && plan.Budget == 0 {
				g := optimize.Greedy(cov, optimize.Options{Exclude: tc.exclude})
				assert.Equal(t, tc.want, g.IDs(), "Greedy agrees with Select")
			}
		})
	}
}
