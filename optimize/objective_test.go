package optimize_test

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// Hand-computed selections for every objective. App values are flat
// milliseconds; "p." nodes are project nodes.
func TestSelectHandComputed(t *testing.T) {
	tests := []struct {
		name    string
		app     map[string]int64
		benches map[string][]string
		plan    optimize.Plan
		want    []string
		gains   []float64
		stop    optimize.Stop
		guard   bool
	}{
		{
			// X covers three cold functions (3 ms), Y one hot one (50 ms).
			name:    "nodes: three cold functions beat one hot one",
			app:     map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1, "p.d": 50},
			benches: map[string][]string{"X": {"p.a", "p.b", "p.c"}, "Y": {"p.d"}},
			want:    []string{"X", "Y"},
			gains:   []float64{3, 1},
			stop:    optimize.StopComplete,
		},
		{
			name:    "impact: the hot function first (0.050s > 0.003s)",
			app:     map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1, "p.d": 50},
			benches: map[string][]string{"X": {"p.a", "p.b", "p.c"}, "Y": {"p.d"}},
			plan:    optimize.Plan{Objective: optimize.Impact},
			want:    []string{"Y", "X"},
			gains:   []float64{0.050, 0.003},
			stop:    optimize.StopComplete,
		},
		{
			// Z adds only the cold p.e (0 ms) after X and Y: impact gains
			// nothing but Z still adds a counted node, so it comes last.
			name:    "impact: zero-time nodes are still covered, last",
			app:     map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1, "p.d": 50, "p.e": 0},
			benches: map[string][]string{"X": {"p.a", "p.b", "p.c"}, "Y": {"p.d"}, "Z": {"p.a", "p.e"}},
			plan:    optimize.Plan{Objective: optimize.Impact},
			want:    []string{"Y", "X", "Z"},
			gains:   []float64{0.050, 0.003, 0},
			stop:    optimize.StopComplete,
		},
		{
			// Ratios: A 3/3 = 1, B 2/1 = 2, C 1/2 = 0.5 → B. Then A adds
			// {1,2}: 2/3 ≈ 0.67 > C 0.5 → A; budget left 0 < C's 2.
			name:    "budget: cost-effectiveness",
			app:     map[string]int64{"p.1": 1, "p.2": 1, "p.3": 1, "p.4": 1, "p.5": 1},
			benches: map[string][]string{"A": {"p.1", "p.2", "p.3"}, "B": {"p.3", "p.4"}, "C": {"p.5"}},
			plan:    optimize.Plan{Budget: 4, Costs: map[string]float64{"A": 3, "B": 1, "C": 2}},
			want:    []string{"B", "A"},
			gains:   []float64{2, 2},
			stop:    optimize.StopBudget,
		},
		{
			// Greedy: A (1/1 = 1) beats B (9/10 = 0.9); then B (10) no
			// longer fits in 10 − 1 = 9 → gain 1. The single best set
			// that fits, B, gains 9 > 1 and is returned instead.
			name: "budget: the single-best-set safeguard",
			app: map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1, "p.d": 1, "p.e": 1,
				"p.f": 1, "p.g": 1, "p.h": 1, "p.i": 1, "p.j": 1},
			benches: map[string][]string{"A": {"p.a"}, "B": {"p.b", "p.c", "p.d", "p.e", "p.f", "p.g", "p.h", "p.i", "p.j"}},
			plan:    optimize.Plan{Budget: 10, Costs: map[string]float64{"A": 1, "B": 10}},
			want:    []string{"B"},
			gains:   []float64{9},
			stop:    optimize.StopBudget,
			guard:   true,
		},
		{
			// Same instance, budget 11: greedy takes A then B (cost 11),
			// gain 10 ≥ 9: no safeguard.
			name: "budget: safeguard not needed",
			app: map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1, "p.d": 1, "p.e": 1,
				"p.f": 1, "p.g": 1, "p.h": 1, "p.i": 1, "p.j": 1},
			benches: map[string][]string{"A": {"p.a"}, "B": {"p.b", "p.c", "p.d", "p.e", "p.f", "p.g", "p.h", "p.i", "p.j"}},
			plan:    optimize.Plan{Budget: 11, Costs: map[string]float64{"A": 1, "B": 10}},
			want:    []string{"A", "B"},
			gains:   []float64{1, 9},
			stop:    optimize.StopComplete,
		},
		{
			// Impact per cost: A 0.004s/2 = 0.002, B 0.009s/9 = 0.001,
			// C 0.001s/0.5 = 0.002 (tie with A: A gains more) → A, C
			// (0.005s); B does not fit in 10 − 2.5. Alone, B fits and
			// gains 0.009s > 0.005s: the safeguard returns B.
			name:    "budget with impact objective, default cost and safeguard",
			app:     map[string]int64{"p.a": 4, "p.b": 9, "p.c": 1},
			benches: map[string][]string{"A": {"p.a"}, "B": {"p.b"}, "C": {"p.c"}},
			plan:    optimize.Plan{Objective: optimize.Impact, Budget: 10, Costs: map[string]float64{"A": 2, "B": 9}, DefaultCost: 0.5},
			want:    []string{"B"},
			gains:   []float64{0.009},
			stop:    optimize.StopBudget,
			guard:   true,
		},
		{
			// Same instance, budget 2.5: B (cost 9) never fits, so the
			// greedy's A, C stand.
			name:    "budget with impact objective: greedy stands",
			app:     map[string]int64{"p.a": 4, "p.b": 9, "p.c": 1},
			benches: map[string][]string{"A": {"p.a"}, "B": {"p.b"}, "C": {"p.c"}},
			plan:    optimize.Plan{Objective: optimize.Impact, Budget: 2.5, Costs: map[string]float64{"A": 2, "B": 9}, DefaultCost: 0.5},
			want:    []string{"A", "C"},
			gains:   []float64{0.004, 0.001},
			stop:    optimize.StopBudget,
		},
		{
			name:    "top",
			app:     map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1, "p.d": 1, "p.e": 1, "p.f": 1},
			benches: map[string][]string{"A": {"p.a", "p.b", "p.c", "p.d"}, "B": {"p.a", "p.b", "p.e"}, "C": {"p.c", "p.f"}},
			plan:    optimize.Plan{Top: 2},
			want:    []string{"A", "C"},
			gains:   []float64{4, 1},
			stop:    optimize.StopTop,
		},
		{
			// TCC: drop picks adding three or fewer nodes.
			name: "min-gain",
			app: map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1, "p.d": 1, "p.e": 1, "p.f": 1, "p.g": 1,
				"p.h": 1, "p.i": 1, "p.j": 1, "p.k": 1},
			benches: map[string][]string{
				"A": {"p.a", "p.b", "p.c", "p.d", "p.e"}, "B": {"p.f", "p.g", "p.h", "p.i"}, "C": {"p.j", "p.k", "p.a"},
			},
			plan:  optimize.Plan{MinGain: 4},
			want:  []string{"A", "B"},
			gains: []float64{5, 4},
			stop:  optimize.StopMinGain,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cov := instance(t, tt.app, tt.benches)
			sel, err := optimize.Select(cov, tt.plan)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.IDs(), "picks")
			var gains []float64
			for _, s := range sel.Steps {
				gains = append(gains, s.Gain)
			}
			assert.InDeltaSlice(t, tt.gains, gains, 1e-12, "gains")
			assert.Equal(t, tt.stop, sel.Stop, "stop")
			assert.Equal(t, tt.guard, sel.Safeguard, "safeguard")
			if tt.plan.Budget > 0 {
				assert.LessOrEqual(t, sel.TotalCost, tt.plan.Budget)
			}
		})
	}
}

func TestSelectSafeguardRecordsGreedyGain(t *testing.T) {
	cov := instance(t, map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1},
		map[string][]string{"A": {"p.a"}, "B": {"p.b", "p.c"}})
	sel, err := optimize.Select(cov, optimize.Plan{Budget: 3, Costs: map[string]float64{"A": 1, "B": 3}})
	require.NoError(t, err)
	assert.True(t, sel.Safeguard)
	assert.Equal(t, 1.0, sel.GreedyGain, "greedy took A (ratio 1 > 2/3), then B no longer fit")
	assert.Equal(t, 2.0, sel.TotalGain)
	assert.Equal(t, 3.0, sel.TotalCost)
}

func TestSelectWeights(t *testing.T) {
	// Node weights as scenario weights: p.a is in two scenarios (2+1),
	// p.b and p.c in one of weight 1 each. X {a} gains 3 > Y {b, c} 2.
	cov := instance(t, map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1},
		map[string][]string{"X": {"p.a"}, "Y": {"p.b", "p.c"}})
	w := make([]float64, cov.App.Len())
	for i, n := range cov.App.Nodes {
		w[i] = map[string]float64{"p.a": 3, "p.b": 1, "p.c": 1}[n.Name]
	}
	sel, err := optimize.Select(cov, optimize.Plan{Weights: w})
	require.NoError(t, err)
	assert.Equal(t, []string{"X", "Y"}, sel.IDs())
	assert.True(t, sel.Weighted)
	plain, err := optimize.Select(cov, optimize.Plan{})
	require.NoError(t, err)
	assert.Equal(t, []string{"Y", "X"}, plain.IDs(), "unweighted, Y adds 2 nodes")
}

func TestSelectErrors(t *testing.T) {
	cov := instance(t, map[string]int64{"p.a": 1, "p.b": 1}, map[string][]string{"A": {"p.a"}, "B": {"p.a"}})
	// weights returns application weights by node name (0 for the rest).
	weights := func(byName map[string]float64) []float64 {
		w := make([]float64, cov.App.Len())
		for i, n := range cov.App.Nodes {
			w[i] = byName[n.Name]
		}
		return w
	}
	ia, _ := cov.App.Lookup("p.a")
	ib, _ := cov.App.Lookup("p.b")
	tests := []struct {
		name string
		plan optimize.Plan
		want string
	}{
		{"missing cost", optimize.Plan{Budget: 1, Costs: map[string]float64{"A": 1}},
			"Plan.Costs: 1 benchmark has no cost, which a budget needs: B; give their cost in Costs or set DefaultCost"},
		{"zero cost", optimize.Plan{Budget: 1, Costs: map[string]float64{"A": 1, "B": 0}},
			"Plan.Costs: 1 benchmark cost is not positive finite seconds: B (0)"},
		{"negative and NaN costs", optimize.Plan{Costs: map[string]float64{"A": -2, "B": math.NaN()}},
			"Plan.Costs: 2 benchmark costs are not positive finite seconds: A (-2), B (NaN)"},
		{"infinite cost", optimize.Plan{Budget: 1, Costs: map[string]float64{"A": math.Inf(1), "B": 1}},
			"Plan.Costs: 1 benchmark cost is not positive finite seconds: A (+Inf)"},
		{"negative default cost", optimize.Plan{DefaultCost: -1},
			"Plan.DefaultCost must be positive and finite (or 0 for none), not -1"},
		{"NaN default cost", optimize.Plan{Budget: 1, DefaultCost: math.NaN()},
			"Plan.DefaultCost must be positive and finite (or 0 for none), not NaN"},
		{"negative budget", optimize.Plan{Budget: -1}, "Plan.Budget must be positive and finite (or 0 for none), not -1"},
		{"NaN budget", optimize.Plan{Budget: math.NaN()}, "Plan.Budget must be positive and finite (or 0 for none), not NaN"},
		{"infinite budget", optimize.Plan{Budget: math.Inf(1)}, "Plan.Budget must be positive and finite (or 0 for none), not +Inf"},
		{"negative top", optimize.Plan{Top: -1}, "Plan.Top must be positive (or 0 for no limit), not -1"},
		{"unknown impact", optimize.Plan{Impact: 7}, "Plan.Impact must be coverage.AttributedImpact or coverage.FlatImpact, not 7"},
		{"negative min-gain", optimize.Plan{MinGain: -2}, "Plan.MinGain must be positive (or 0 for none), not -2"},
		{"weights: wrong length", optimize.Plan{Weights: []float64{1}},
			"Plan.Weights has 1 entries for 2 application nodes; give one weight per node of the application graph"},
		{"weights: negative", optimize.Plan{Weights: weights(map[string]float64{"p.a": 1, "p.b": -0.5})},
			fmt.Sprintf("Plan.Weights: 1 weight is not finite and non-negative: [%d] p.b (-0.5)", ib)},
		{"weights: NaN and Inf", optimize.Plan{Weights: weights(map[string]float64{"p.a": math.NaN(), "p.b": math.Inf(1)})},
			fmt.Sprintf("Plan.Weights: 2 weights are not finite and non-negative: [%d] p.a (NaN), [%d] p.b (+Inf)", ia, ib)},
		{"weights: -Inf", optimize.Plan{Weights: weights(map[string]float64{"p.a": math.Inf(-1)})},
			fmt.Sprintf("Plan.Weights: 1 weight is not finite and non-negative: [%d] p.a (-Inf)", ia)},
		{"weights: sum overflows", optimize.Plan{Weights: weights(map[string]float64{"p.a": math.MaxFloat64, "p.b": math.MaxFloat64})},
			"Plan.Weights sum to +Inf; scale them down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := optimize.Select(cov, tt.plan)
			assert.EqualError(t, err, tt.want)
			assert.Nil(t, sel)
		})
	}
}

// Zero weights and costs without a budget are valid plans.
func TestSelectValidEdgePlans(t *testing.T) {
	cov := instance(t, map[string]int64{"p.a": 1, "p.b": 1}, map[string][]string{"A": {"p.a"}, "B": {"p.b"}})
	sel, err := optimize.Select(cov, optimize.Plan{Weights: make([]float64, cov.App.Len())})
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B"}, sel.IDs(), "zero weights: both still add a counted node; full tie, smaller id first")
	assert.Zero(t, sel.TotalGain)
	sel, err = optimize.Select(cov, optimize.Plan{Costs: map[string]float64{"A": 2, "B": 1}})
	require.NoError(t, err)
	assert.Equal(t, 3.0, sel.TotalCost, "costs without a budget are recorded")
}

func TestParseObjective(t *testing.T) {
	for _, o := range []optimize.Objective{optimize.NodeCount, optimize.Impact, optimize.Cost, optimize.Caught} {
		got, err := optimize.ParseObjective(o.String())
		require.NoError(t, err)
		assert.Equal(t, o, got)
	}
	_, err := optimize.ParseObjective("time")
	assert.EqualError(t, err, `invalid objective "time": valid values are {nodes|impact|cost|caught}`)
}

// randomInstance is a small random instance with many ties: flat times
// of 0–3 ms (impact ties) and benchmark graphs padded with 0–2 filler nodes
// outside the application (graph-size ties).
func randomInstance(t *testing.T, rng *rand.Rand) *coverage.Result {
	app := map[string]int64{}
	var names []string
	for i := 0; i < 5+rng.Intn(40); i++ {
		kind := "p"
		if rng.Intn(3) == 0 {
			kind = "x"
		}
		name := fmt.Sprintf("%s.f%d", kind, i)
		names = append(names, name)
		app[name] = int64(rng.Intn(4))
	}
	benches := map[string][]string{}
	for b := 0; b < 1+rng.Intn(15); b++ {
		var nodes []string
		for _, n := range names {
			if rng.Intn(4) == 0 {
				nodes = append(nodes, n)
			}
		}
		for f := 0; f < rng.Intn(3); f++ {
			nodes = append(nodes, fmt.Sprintf("q.filler%d", f))
		}
		if len(nodes) == 0 {
			nodes = []string{"q.filler"}
		}
		benches[fmt.Sprintf("B%02d", b)] = nodes
	}
	return instance(t, app, benches)
}

// The zero Plan must reproduce Algorithm 2 exactly, steps included.
func TestSelectZeroPlanIsGreedy(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for trial := 0; trial < 200; trial++ {
		cov := randomInstance(t, rng)
		for _, nodes := range []optimize.Nodes{optimize.ProjectNodes, optimize.AllNodes} {
			sel, err := optimize.Select(cov, optimize.Plan{Nodes: nodes})
			require.NoError(t, err)
			require.Equal(t, optimize.Greedy(cov, optimize.Options{Nodes: nodes}), sel.Result(), "trial %d, %s", trial, nodes)
		}
	}
}

// The budgeted selection must fit its budget and reach the (1 − 1/e)/2
// guarantee against the brute-force optimum.
func TestSelectBudgetGuarantee(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	bound := (1 - 1/math.E) / 2
	for trial := 0; trial < 300; trial++ {
		cov := randomInstance(t, rng)
		costs := map[string]float64{}
		for _, s := range cov.Sets {
			costs[s.ID] = float64(1 + rng.Intn(9))
		}
		budget := float64(1 + rng.Intn(15))
		for _, obj := range []optimize.Objective{optimize.NodeCount, optimize.Impact} {
			sel, err := optimize.Select(cov, optimize.Plan{Objective: obj, Budget: budget, Costs: costs})
			require.NoError(t, err)
			require.LessOrEqual(t, sel.TotalCost, budget, "trial %d", trial)
			opt := bruteForce(cov, obj, costs, budget)
			require.GreaterOrEqual(t, sel.TotalGain+1e-12, bound*opt, "trial %d %s: gain %g, optimum %g", trial, obj, sel.TotalGain, opt)
		}
	}
}

// bruteForce returns the best project-node gain of any subset within budget.
func bruteForce(cov *coverage.Result, obj optimize.Objective, costs map[string]float64, budget float64) float64 {
	best := 0.0
	n := len(cov.Sets)
	for m := 0; m < 1<<n; m++ {
		cost := 0.0
		u := cov.Covered.Clone()
		for i := range u {
			u[i] = 0
		}
		for i := 0; i < n; i++ {
			if m&(1<<i) != 0 {
				cost += costs[cov.Sets[i].ID]
				u.Or(cov.Sets[i].Nodes)
			}
		}
		if cost > budget {
			continue
		}
		u.And(cov.ProjectMask)
		g := float64(u.Len())
		if obj == optimize.Impact {
			g = cov.Impact(u)
		}
		best = max(best, g)
	}
	return best
}

// TestImpactKind checks by hand how Plan.Impact and Options.Impact change
// the picks. The application spends 50ms in runtime.memclr under p.A and
// 20ms in p.B itself: attributed time p.A 50ms, p.B 20ms; flat time
// runtime.memclr 50ms, p.B 20ms, p.A 0.
func TestImpactKind(t *testing.T) {
	opts := callgraph.Options{Modules: []string{"p"}}
	app, err := callgraph.New(proftest.Profile(
		proftest.Stack{Frames: []string{"p.A", "runtime.memclr"}, Nanos: 50e6},
		proftest.Stack{Frames: []string{"p.B"}, Nanos: 20e6},
	), opts)
	require.NoError(t, err)
	bench := func(id string, frames ...string) coverage.Benchmark {
		g, err := callgraph.New(proftest.Profile(proftest.Stack{Frames: frames, Nanos: 1e7}), opts)
		require.NoError(t, err)
		return coverage.Benchmark{ID: id, Graph: g}
	}
	// "a" covers p.A; "b" covers p.B and the runtime leaf. Each adds one
	// project node.
	cov := coverage.Compute(app, []coverage.Benchmark{bench("a", "p.A"), bench("b", "p.B", "runtime.memclr")})

	tests := []struct {
		name      string
		objective optimize.Objective
		impact    coverage.ImpactKind
		want      []string
		gains     []float64
	}{
		// Tie on one node each; added impact over all nodes: a 50ms
		// attributed vs b 20ms; flat a 0 vs b 70ms.
		{"nodes, attributed tie-break", optimize.NodeCount, coverage.AttributedImpact, []string{"a", "b"}, []float64{1, 1}},
		{"nodes, flat tie-break", optimize.NodeCount, coverage.FlatImpact, []string{"b", "a"}, []float64{1, 1}},
		// Gain: the counted (project) nodes' time: a 50ms, b 20ms
		// attributed; a 0, b 20ms flat (a is still taken: it adds a node).
		{"impact, attributed", optimize.Impact, coverage.AttributedImpact, []string{"a", "b"}, []float64{0.05, 0.02}},
		{"impact, flat", optimize.Impact, coverage.FlatImpact, []string{"b", "a"}, []float64{0.02, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := optimize.Select(cov, optimize.Plan{Objective: tt.objective, Impact: tt.impact})
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.IDs())
			assert.Equal(t, tt.impact, sel.Impact)
			for i, st := range sel.Steps {
				assert.InDelta(t, tt.gains[i], st.Gain, 1e-12, "gain of %s", st.ID)
			}
			if tt.objective == optimize.NodeCount {
				assert.Equal(t, tt.want, optimize.Greedy(cov, optimize.Options{Impact: tt.impact}).IDs(), "Greedy agrees with Select")
			}
			// Both impacts are recorded whatever the kind.
			last := sel.Steps[len(sel.Steps)-1]
			assert.InDelta(t, 0.070, last.CumulativeImpactSeconds, 1e-12, "flat: memclr and p.B")
			assert.InDelta(t, 0.070, last.CumulativeAttributedImpactSeconds, 1e-12, "attributed: p.A and p.B")
			for _, st := range sel.Steps {
				want := map[string][2]float64{"a": {0, 0.05}, "b": {0.07, 0.02}}[st.ID]
				assert.InDelta(t, want[0], st.ImpactSeconds, 1e-12, "%s flat impact", st.ID)
				assert.InDelta(t, want[1], st.AttributedImpactSeconds, 1e-12, "%s attributed impact", st.ID)
			}
		})
	}
}
