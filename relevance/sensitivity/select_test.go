package sensitivity_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
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
		{"tie: the smaller MDE before the cheaper", []sensitivity.Benchmark{{ID: "m.A", Profile: same, MDE: 0.004}, {ID: "m.B", Profile: same, MDE: 0.002}}, map[string]float64{"m.A": 1, "m.B": 9}, []string{"m.B"}, 0.2, 0},
		{"tie: the cheaper", []sensitivity.Benchmark{{ID: "m.A", Profile: same}, {ID: "m.B", Profile: same}}, map[string]float64{"m.A": 2, "m.B": 1}, []string{"m.B"}, 0.2, 0},
		{"tie: a known cost", []sensitivity.Benchmark{{ID: "m.A", Profile: same}, {ID: "m.B", Profile: same}}, map[string]float64{"m.B": 5}, []string{"m.B"}, 0.2, 0},
		{"tie: the smaller id", []sensitivity.Benchmark{{ID: "m.B", Profile: same}, {ID: "m.A", Profile: same}}, nil, []string{"m.A"}, 0.2, 0},
		{"a larger gain beats precision and cost", []sensitivity.Benchmark{
			{ID: "m.A", Profile: same, MDE: 0.002},
			{ID: "m.B", Profile: graph("instructions", map[string]float64{"m.Hash": 1, "m.Serve": 1}), MDE: 0.004},
		}, map[string]float64{"m.A": 1, "m.B": 9}, []string{"m.B"}, 0.3, 0},
		{"at +1500% Parse is caught too", issue, nil, []string{"m.BenchmarkServe", "m.BenchmarkHash"}, 1.0, 15},
		{"at +1400% Parse is not", issue, nil, []string{"m.BenchmarkServe", "m.BenchmarkHash"}, 0.6, 14},
		{"nothing caught", []sensitivity.Benchmark{{ID: "m.A", Profile: same, MDE: 0.5}}, nil, []string{}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opt sensitivity.Options
			rel, err := sensitivity.NewRelation(app, tc.benches, opt, tc.slowdown)
			require.NoError(t, err)
			sel, err := rel.Select(optimize.Plan{Costs: tc.cost})
			require.NoError(t, err)
			assert.Equal(t, optimize.Caught, sel.Objective)
			assert.Equal(t, tc.want, sel.IDs())
			assert.InDelta(t, tc.caught, sel.TotalGain, 1e-12)
			assert.InDelta(t, rel.Caught(), sel.TotalGain, 1e-12)
			// The picks catch what the whole suite catches.
			opt.Slowdowns, opt.Suite = []float64{rel.Slowdown}, sel.IDs()
			r, err := sensitivity.Compute(app, tc.benches, opt)
			require.NoError(t, err)
			assert.InDelta(t, r.Caught[0].AppShare, r.SuiteCaught[0].AppShare, 1e-12)
			assert.InDelta(t, r.Caught[0].AppShare, sel.TotalGain, 1e-12)
		})
	}
}

// coveredTwice is the case plain coverage gets wrong: m.Hot (50% of the
// application) runs in both benchmarks, but is 90% of BenchmarkHot's work
// and 0.1% of BenchmarkWide's, which also runs m.Cold. Coverage keeps
// BenchmarkWide alone (it covers both functions); a +10% slowdown of
// m.Hot then moves it by 0.01%, which nothing reports.
func coveredTwice() (*callgraph.Graph, []sensitivity.Benchmark) {
	app := graph("seconds", map[string]float64{"m.Hot": 50, "m.Cold": 50})
	return app, []sensitivity.Benchmark{
		{ID: "m.BenchmarkHot", Profile: graph("instructions", map[string]float64{"m.Hot": 900, "m.Other": 100})},
		{ID: "m.BenchmarkWide", Profile: graph("instructions", map[string]float64{"m.Hot": 1, "m.Cold": 999})},
	}
}

// TestCaughtKeepsWhatCoverageLoses: over every benchmark subset of the
// constructed suites, the caught objective's suite catches every function
// the whole suite catches, while Algorithm 2's (coverage) suite loses
// m.Hot's detectability in the covered-twice suite.
func TestCaughtKeepsWhatCoverageLoses(t *testing.T) {
	issueApp, issue := issueModule()
	twiceApp, twice := coveredTwice()
	for _, tc := range []struct {
		name         string
		app          *callgraph.Graph
		benches      []sensitivity.Benchmark
		caught       []string // the caught objective's suite
		coverage     []string // Algorithm 2's suite
		coverageLoss float64  // application share caught by the whole suite, not by Algorithm 2's
	}{
		{"covered twice, caught once", twiceApp, twice, []string{"m.BenchmarkHot", "m.BenchmarkWide"}, []string{"m.BenchmarkWide"}, 0.5},
		{"the issue's module", issueApp, issue, []string{"m.BenchmarkServe", "m.BenchmarkHash"}, []string{"m.BenchmarkServe", "m.BenchmarkHash"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel, err := sensitivity.NewRelation(tc.app, tc.benches, sensitivity.Options{}, 0)
			require.NoError(t, err)
			sel, err := rel.Select(optimize.Plan{})
			require.NoError(t, err)
			assert.Equal(t, tc.caught, sel.IDs())

			cbs := make([]coverage.Benchmark, len(tc.benches))
			for i, b := range tc.benches {
				cbs[i] = coverage.Benchmark{ID: b.ID, Graph: b.Profile}
			}
			alg2 := optimize.Greedy(coverage.Compute(tc.app, cbs), optimize.Options{Nodes: optimize.AllNodes})
			assert.Equal(t, tc.coverage, alg2.IDs())

			r, err := sensitivity.Compute(tc.app, tc.benches, sensitivity.Options{Suite: sel.IDs()})
			require.NoError(t, err)
			assert.InDelta(t, r.CaughtAt(0.10), caughtBy(t, tc.app, tc.benches, sel.IDs()), 1e-12, "the caught suite keeps the curve at 10%")
			assert.InDelta(t, tc.coverageLoss, r.CaughtAt(0.10)-caughtBy(t, tc.app, tc.benches, alg2.IDs()), 1e-12)
		})
	}
}

// caughtBy returns the application share a 10% slowdown would be caught
// in by the benchmarks ids of benches.
func caughtBy(t *testing.T, app *callgraph.Graph, benches []sensitivity.Benchmark, ids []string) float64 {
	t.Helper()
	r, err := sensitivity.Compute(app, benches, sensitivity.Options{Suite: ids, Slowdowns: []float64{0.10}})
	require.NoError(t, err)
	return r.SuiteCaught[0].AppShare
}

// TestSelectBudgetAndCertificate: the budgeted variant of the caught
// objective keeps the best gain within the budget, and the certificate
// bounds the smallest suite that catches the same functions.
func TestSelectBudgetAndCertificate(t *testing.T) {
	app := graph("seconds", map[string]float64{"m.A": 40, "m.B": 30, "m.C": 30})
	one := func(name string) *callgraph.Graph { return graph("instructions", map[string]float64{name: 1}) }
	benches := []sensitivity.Benchmark{
		{ID: "m.BenchmarkA", Profile: one("m.A")},
		{ID: "m.BenchmarkB", Profile: one("m.B")},
		{ID: "m.BenchmarkC", Profile: one("m.C")},
		{ID: "m.BenchmarkBC", Profile: graph("instructions", map[string]float64{"m.B": 1, "m.C": 1})},
	}
	costs := map[string]float64{"m.BenchmarkA": 4, "m.BenchmarkB": 1, "m.BenchmarkC": 1, "m.BenchmarkBC": 3}
	rel, err := sensitivity.NewRelation(app, benches, sensitivity.Options{}, 0)
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		budget float64
		want   []string
		gain   float64
		stop   optimize.Stop
	}{
		{"no budget", 0, []string{"m.BenchmarkBC", "m.BenchmarkA"}, 1, optimize.StopComplete},
		{"budget 2: the two cheap ones", 2, []string{"m.BenchmarkB", "m.BenchmarkC"}, 0.6, optimize.StopBudget},
		{"budget 4: gain per cost, then A does not fit", 4, []string{"m.BenchmarkB", "m.BenchmarkC"}, 0.6, optimize.StopBudget},
		{"budget 6: everything", 6, []string{"m.BenchmarkB", "m.BenchmarkC", "m.BenchmarkA"}, 1, optimize.StopComplete},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := rel.Select(optimize.Plan{Budget: tc.budget, Costs: costs})
			require.NoError(t, err)
			assert.Equal(t, tc.want, sel.IDs())
			assert.InDelta(t, tc.gain, sel.TotalGain, 1e-12)
			assert.Equal(t, tc.stop, sel.Stop)
			if tc.budget > 0 {
				assert.LessOrEqual(t, sel.TotalCost, tc.budget)
			}
		})
	}
	sel, err := rel.Select(optimize.Plan{})
	require.NoError(t, err)
	c, err := rel.Certify(len(sel.IDs()), 0)
	require.NoError(t, err)
	assert.Equal(t, 2, c.Greedy)
	assert.Equal(t, 2, c.LowerBound, "m.A is caught by BenchmarkA alone, and B and C need another")
	assert.True(t, c.Solved)
	assert.Equal(t, 0, c.Gap())
}

func TestSelectErrors(t *testing.T) {
	app, _ := issueModule()
	_, err := sensitivity.NewRelation(&callgraph.Graph{}, nil, sensitivity.Options{}, 0)
	assert.ErrorContains(t, err, "the application profile has no samples")
	_, err = sensitivity.NewRelation(app, []sensitivity.Benchmark{{ID: "m.X", Profile: &callgraph.Graph{}}}, sensitivity.Options{}, 0)
	assert.ErrorContains(t, err, "benchmark m.X: its profile has no samples")
}
