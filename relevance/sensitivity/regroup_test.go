package sensitivity_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/sensitivity"
)

// TestRegroup folds Parse's closure into Parse (their unnoticed shares
// add up, 40% + 8%; the detectable slowdown is Parse's own, the larger
// member's), leaves Hash out (caught from +1%), ranks the negligible
// m.Tiny last although its unnoticed share beats m.Serve's (caught only
// from +20%), and drops m.Loose, in no target.
func TestRegroup(t *testing.T) {
	app := graph("seconds", map[string]float64{"m.Parse": 40, "m.Parse.func1": 8, "m.Hash": 20, "m.Serve": 4, "m.Tiny": 6, "m.Loose": 2, "runtime.mallocgc": 20})
	benches := []sensitivity.Benchmark{
		{ID: "m.BenchmarkHash", Profile: graph("instructions", map[string]float64{"m.Hash": 1000})},
		{ID: "m.BenchmarkServe", Profile: graph("instructions", map[string]float64{"m.Parse": 1, "m.Parse.func1": 2, "m.Serve": 49, "runtime.mallocgc": 948})},
	}
	r, err := sensitivity.Compute(app, benches, sensitivity.Options{})
	require.NoError(t, err)
	r.Regroup([]sensitivity.Target{
		{Function: "m.Hash", Members: []string{"m.Hash"}},
		{Function: "m.Parse", Members: []string{"m.Parse", "m.Parse.func1"}},
		{Function: "m.Serve", Members: []string{"m.Serve"}},
		{Function: "m.Tiny", Members: []string{"m.Tiny"}, Negligible: true},
	}, true)
	var names []string
	for _, rec := range r.Recommendations {
		names = append(names, rec.Function.Function)
	}
	assert.Equal(t, []string{"m.Parse", "m.Serve", "m.Tiny"}, names)
	p := r.Recommendations[0]
	assert.InDelta(t, 0.48, p.Unnoticed, 1e-12)
	assert.Equal(t, []string{"m.Parse", "m.Parse.func1"}, p.Members)
	require.NotNil(t, p.DetectableSlowdown)
	assert.InDelta(t, (0.01+0.005)/0.001, *p.DetectableSlowdown, 1e-9, "Parse's own: (1% + 0.5%) / 0.1%")
	assert.True(t, r.Recommendations[2].Negligible)
	assert.Len(t, r.Functions, 7, "the functions are not regrouped")
}
