package optimize_test

import (
	"math"
	"math/bits"
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
)

// Hand-computed suites of the Cost objective. App values are flat
// milliseconds; "p." nodes are project nodes.
func TestSelectCostHandComputed(t *testing.T) {
	tests := []struct {
		name      string
		app       map[string]int64
		benches   map[string][]string
		costs     map[string]float64
		want      []string // the suite, in its step order
		cost      float64
		alg2      []string // Algorithm 2's suite
		alg2Cost  float64
		dropped   []string
		safeguard bool
		greedy    float64 // Selection.GreedyCost
	}{
		{
			// The case: one 42 s benchmark adds helpers that two
			// cheap ones cover too. Algorithm 2 takes Slow (4 nodes) first,
			// then Extra for p.e: 43 s. Ratios: Slow 4/42 ≈ 0.1, A 2/1,
			// B 2/1, Extra 1/1 → A and B tie on 2 nodes per second and on
			// gain; B's nodes take 2 ms + 1 ms > A's 1 ms + 1 ms → B, A,
			// then Extra: 3 s.
			name: "a cheap pair replaces an expensive benchmark",
			app:  map[string]int64{"p.a": 1, "p.b": 1, "p.c": 2, "p.d": 1, "p.e": 1},
			benches: map[string][]string{
				"Slow": {"p.a", "p.b", "p.c", "p.d"}, "A": {"p.a", "p.b"}, "B": {"p.c", "p.d"}, "Extra": {"p.e"},
			},
			costs:    map[string]float64{"Slow": 42, "A": 1, "B": 1, "Extra": 1},
			want:     []string{"B", "A", "Extra"},
			cost:     3,
			alg2:     []string{"Slow", "Extra"},
			alg2Cost: 43,
			greedy:   3,
		},
		{
			// Ratios X 2/1, Y 2/1 (a full tie: 2 ms each, graphs of two
			// nodes; X by id), Z 6/3.1 ≈ 1.94. The greedy takes X, Y, then
			// Z for p.5 and
			// p.6 (only Z has them). Reverse delete, most expensive
			// first: Z is needed; Y (cost 1, the later pick) is covered by
			// Z → dropped; then X → dropped. Algorithm 2 takes Z alone:
			// same suite, not cheaper, no safeguard.
			name: "reverse delete drops what a later pick covers",
			app:  map[string]int64{"p.1": 1, "p.2": 1, "p.3": 1, "p.4": 1, "p.5": 1, "p.6": 1},
			benches: map[string][]string{
				"X": {"p.1", "p.2"}, "Y": {"p.3", "p.4"}, "Z": {"p.1", "p.2", "p.3", "p.4", "p.5", "p.6"},
			},
			costs:    map[string]float64{"X": 1, "Y": 1, "Z": 3.1},
			want:     []string{"Z"},
			cost:     3.1,
			alg2:     []string{"Z"},
			alg2Cost: 3.1,
			dropped:  []string{"Y", "X"},
			greedy:   3.1,
		},
		{
			// Chvátal's bad case for the cost-weighted greedy: singletons
			// of cost 1/3, 1/2 and 1 against all three for 1.1. Ratios
			// S1 3 > Big 2.73 → S1; then S2 2 > Big 2/1.1 → S2; then S3 1
			// > Big 1/1.1 → S3: 1.83, irredundant. Algorithm 2 takes Big
			// (3 nodes): 1.1 is strictly cheaper, so the safeguard
			// returns it.
			name: "the safeguard returns Algorithm 2's cheaper suite",
			app:  map[string]int64{"p.1": 1, "p.2": 1, "p.3": 1},
			benches: map[string][]string{
				"S1": {"p.1"}, "S2": {"p.2"}, "S3": {"p.3"}, "Big": {"p.1", "p.2", "p.3"},
			},
			costs:     map[string]float64{"S1": 1.0 / 3, "S2": 0.5, "S3": 1, "Big": 1.1},
			want:      []string{"Big"},
			cost:      1.1,
			alg2:      []string{"Big"},
			alg2Cost:  1.1,
			safeguard: true,
			greedy:    1.0/3 + 0.5 + 1,
		},
		{
			// Algorithm 2 takes ABC (3 nodes), then CD for p.d: 5 + 1.
			// Reverse delete keeps both (p.a, p.b and p.d each have one
			// benchmark). The cost greedy: AB 2/1, CD 2/1, ABC 3/5 → AB
			// and CD tie (2 ms each, same graph size) → AB by id, then
			// CD: 2.
			name: "Algorithm 2's suite is irredundant but not cheapest",
			app:  map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1, "p.d": 1},
			benches: map[string][]string{
				"ABC": {"p.a", "p.b", "p.c"}, "AB": {"p.a", "p.b"}, "CD": {"p.c", "p.d"},
			},
			costs:    map[string]float64{"ABC": 5, "AB": 1, "CD": 1},
			want:     []string{"AB", "CD"},
			cost:     2,
			alg2:     []string{"ABC", "CD"},
			alg2Cost: 6,
			greedy:   2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cov := instance(t, tt.app, tt.benches)
			sel, err := optimize.Select(cov, optimize.Plan{Objective: optimize.Cost, Costs: tt.costs})
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.IDs(), "suite")
			assert.InDelta(t, tt.cost, sel.TotalCost, 1e-12, "cost")
			assert.Equal(t, tt.dropped, sel.Dropped, "dropped")
			assert.Equal(t, tt.safeguard, sel.Safeguard, "safeguard")
			assert.InDelta(t, tt.greedy, sel.GreedyCost, 1e-12, "greedy cost")
			assert.Equal(t, optimize.StopComplete, sel.Stop)
			assert.Equal(t, optimize.Cost, sel.Objective)
			g := optimize.Greedy(cov, optimize.Options{})
			assert.Equal(t, tt.alg2, g.IDs(), "Algorithm 2")
			alg2Cost := 0.0
			for _, id := range g.IDs() {
				alg2Cost += tt.costs[id]
			}
			assert.InDelta(t, tt.alg2Cost, alg2Cost, 1e-12, "Algorithm 2's cost")
			assert.Equal(t, g.Covered, sel.Covered, "every node here is a project node: same coverage")
		})
	}
}

// With equal costs the cost-weighted greedy is Algorithm 2: the suite is
// Algorithm 2's minus what the reverse-delete pass drops.
func TestSelectCostEqualCostsIsAlgorithm2(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for trial := 0; trial < 200; trial++ {
		cov := randomInstance(t, rng)
		for _, nodes := range []optimize.Nodes{optimize.ProjectNodes, optimize.AllNodes} {
			sel, err := optimize.Select(cov, optimize.Plan{Nodes: nodes, Objective: optimize.Cost, DefaultCost: 2.5})
			require.NoError(t, err)
			got := slices.Concat(sel.IDs(), sel.Dropped)
			slices.Sort(got)
			want := optimize.Greedy(cov, optimize.Options{Nodes: nodes}).IDs()
			slices.Sort(want)
			require.True(t, slices.Equal(want, got), "trial %d, %s: got %v, want %v", trial, nodes, got, want)
			require.False(t, sel.Safeguard, "trial %d, %s", trial, nodes)
		}
	}
}

// On random instances the Cost objective must cover exactly what
// Algorithm 2 covers, never cost more than Algorithm 2's suite, keep no
// redundant pick, and lie above the brute-force optimum, which lies above
// CertifyCost's bound. The worst ratio to the optimum and the savings over
// Algorithm 2 are logged (the greedy guarantees only H(k)).
func TestSelectCostBruteForce(t *testing.T) {
	type costGen struct {
		name string
		gen  func(rng *rand.Rand) float64
	}
	gens := []costGen{
		{"integer 1-9 s", func(rng *rand.Rand) float64 { return float64(1 + rng.Intn(9)) }},
		{"log-uniform 0.1-100 s", func(rng *rand.Rand) float64 { return 0.1 * math.Pow(1000, rng.Float64()) }},
	}
	rng := rand.New(rand.NewSource(6))
	for _, g := range gens {
		var instances, cheaper, optimal int
		worst, bestSaving := 1.0, 0.0
		for trial := 0; trial < 300; trial++ {
			cov := randomInstance(t, rng)
			costs := map[string]float64{}
			for _, s := range cov.Sets {
				costs[s.ID] = g.gen(rng)
			}
			for _, nodes := range []optimize.Nodes{optimize.ProjectNodes, optimize.AllNodes} {
				instances++
				plan := optimize.Plan{Nodes: nodes, Objective: optimize.Cost, Costs: costs}
				sel, err := optimize.Select(cov, plan)
				require.NoError(t, err)
				alg2 := optimize.Greedy(cov, optimize.Options{Nodes: nodes})
				mask := cov.ProjectMask
				if nodes == optimize.AllNodes {
					mask = cov.AllMask
				}
				want := alg2.Covered.Clone()
				want.And(mask)
				got := sel.Covered.Clone()
				got.And(mask)
				require.Equal(t, want, got, "%s trial %d %s: counted coverage", g.name, trial, nodes)

				alg2Cost := 0.0
				for _, id := range alg2.IDs() {
					alg2Cost += costs[id]
				}
				require.LessOrEqual(t, sel.TotalCost, alg2Cost+1e-9, "%s trial %d %s: costlier than Algorithm 2", g.name, trial, nodes)
				if sel.TotalCost < alg2Cost-1e-9 {
					cheaper++
					bestSaving = max(bestSaving, 1-sel.TotalCost/alg2Cost)
				}
				for _, st := range sel.Steps {
					require.Positive(t, st.Added, "%s trial %d %s: %s adds no counted node", g.name, trial, nodes, st.ID)
				}
				irredundant(t, cov, mask, sel)

				opt := minCostCover(cov, mask, costs)
				require.LessOrEqual(t, opt, sel.TotalCost+1e-9, "%s trial %d %s: below the optimum", g.name, trial, nodes)
				c, err := optimize.CertifyCost(cov, optimize.CertifyOptions{Nodes: nodes, Costs: costs})
				require.NoError(t, err)
				require.True(t, c.Solved, c.Skipped)
				require.LessOrEqual(t, c.LowerBound, opt+1e-9, "%s trial %d %s: bound above the optimum", g.name, trial, nodes)
				require.LessOrEqual(t, c.Essential, c.LowerBound+1e-12)
				require.InDelta(t, sel.TotalCost, c.Cost, 1e-12)
				require.InDelta(t, alg2Cost, c.Greedy, 1e-9)
				if opt > 0 {
					worst = max(worst, sel.TotalCost/opt)
				}
				if sel.TotalCost <= opt+1e-9 {
					optimal++
				}
			}
		}
		t.Logf("%s: %d instances; optimal in %d; worst cost/optimum %.4f; cheaper than Algorithm 2 in %d, by up to %.1f%%",
			g.name, instances, optimal, worst, cheaper, 100*bestSaving)
	}
}

// irredundant fails unless every pick of sel covers a counted node that no
// other pick covers.
func irredundant(t *testing.T, cov *coverage.Result, mask []uint64, sel *optimize.Selection) {
	t.Helper()
	for i, st := range sel.Steps {
		own := cov.Sets[st.Index].Nodes.Clone()
		own.And(mask)
		for j, o := range sel.Steps {
			if j != i {
				own.AndNot(cov.Sets[o.Index].Nodes)
			}
		}
		require.Positive(t, own.Len(), "%s is redundant in %v", st.ID, sel.IDs())
	}
}

// minCostCover is the cheapest cost of sets covering the counted nodes of
// cov.Covered, by dynamic programming over all subsets: the instances of
// randomInstance have at most 15 sets and 45 application nodes, so each
// set fits a uint64 of the counted coverable nodes.
func minCostCover(cov *coverage.Result, mask []uint64, costs map[string]float64) float64 {
	universe := cov.Covered.Clone()
	universe.And(mask)
	elems := universe.Elems()
	if len(elems) > 64 {
		panic("minCostCover: more than 64 counted nodes")
	}
	sets := make([]uint64, len(cov.Sets))
	for i, s := range cov.Sets {
		for b, v := range elems {
			if s.Nodes.Has(v) {
				sets[i] |= 1 << b
			}
		}
	}
	full := uint64(1)<<len(elems) - 1
	if len(elems) == 64 {
		full = math.MaxUint64
	}
	n := len(cov.Sets)
	union := make([]uint64, 1<<n)
	cost := make([]float64, 1<<n)
	best := math.Inf(1)
	for m := 0; m < 1<<n; m++ {
		if m > 0 {
			i := bits.TrailingZeros(uint(m))
			union[m] = union[m&(m-1)] | sets[i]
			cost[m] = cost[m&(m-1)] + costs[cov.Sets[i].ID]
		}
		if union[m] == full {
			best = min(best, cost[m])
		}
	}
	return best
}

func TestSelectCostErrors(t *testing.T) {
	cov := instance(t, map[string]int64{"p.a": 1, "p.b": 1, "x.c": 1},
		map[string][]string{"A": {"p.a"}, "B": {"p.b"}, "Ext": {"x.c"}, "None": {"q.other"}})
	tests := []struct {
		name string
		plan optimize.Plan
		want string
	}{
		{"no costs", optimize.Plan{Objective: optimize.Cost},
			"Plan.Costs: 2 benchmarks have no cost, which the cost objective needs: A, B; give their cost in Costs or set DefaultCost"},
		{"only benchmarks with gain need one", optimize.Plan{Objective: optimize.Cost, Costs: map[string]float64{"A": 1}},
			"Plan.Costs: 1 benchmark has no cost, which the cost objective needs: B; give their cost in Costs or set DefaultCost"},
		{"all nodes: the external one needs a cost too", optimize.Plan{Nodes: optimize.AllNodes, Objective: optimize.Cost, Costs: map[string]float64{"A": 1, "B": 1}},
			"Plan.Costs: 1 benchmark has no cost, which the cost objective needs: Ext; give their cost in Costs or set DefaultCost"},
		{"zero cost", optimize.Plan{Objective: optimize.Cost, Costs: map[string]float64{"A": 0, "B": 1}},
			"Plan.Costs: 1 benchmark cost is not positive finite seconds: A (0)"},
		{"budget", optimize.Plan{Objective: optimize.Cost, Budget: 3, DefaultCost: 1},
			"Plan.Budget cannot be combined with Objective cost, which keeps Algorithm 2's full coverage at the smallest cost; leave Budget unset"},
		{"top, min-gain and weights", optimize.Plan{Objective: optimize.Cost, Top: 1, MinGain: 2, Weights: make([]float64, cov.App.Len()), DefaultCost: 1},
			"Plan.Top, Plan.MinGain, Plan.Weights cannot be combined with Objective cost, which keeps Algorithm 2's full coverage at the smallest cost; leave Top, MinGain, Weights unset"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := optimize.Select(cov, tt.plan)
			assert.EqualError(t, err, tt.want)
			assert.Nil(t, sel)
			c, err := optimize.CertifyCost(cov, optimize.CertifyOptions{Nodes: tt.plan.Nodes, Costs: tt.plan.Costs, DefaultCost: tt.plan.DefaultCost})
			if tt.plan.Budget == 0 && tt.plan.Top == 0 {
				assert.EqualError(t, err, tt.want, "CertifyCost")
				assert.Nil(t, c)
			}
		})
	}
	// Costs for the benchmarks with gain suffice.
	sel, err := optimize.Select(cov, optimize.Plan{Objective: optimize.Cost, Costs: map[string]float64{"A": 1, "B": 2}})
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B"}, sel.IDs())
	assert.Equal(t, 3.0, sel.TotalCost)
}

func TestCertifyCostKnownLP(t *testing.T) {
	tests := []struct {
		name      string
		app       map[string]int64
		benches   map[string][]string
		costs     map[string]float64
		cost      float64
		lp        float64
		essential float64
		cols      int
	}{
		{
			// Each node in two of three sets of cost 2: x = ½ each costs
			// 3, and y = 1 on every node is a dual solution of value 3
			// (each set holds two nodes: 2 ≤ 2), so the LP optimum is 3;
			// any cover needs two sets: 4.
			name:    "triangle: fractional optimum",
			app:     ones("p.a", "p.b", "p.c"),
			benches: map[string][]string{"X": {"p.a", "p.b"}, "Y": {"p.b", "p.c"}, "Z": {"p.a", "p.c"}},
			costs:   map[string]float64{"X": 2, "Y": 2, "Z": 2},
			cost:    4, lp: 3, cols: 3,
		},
		{
			// X alone covers p.a, Y alone p.c: both essential, 2 + 5 = 7,
			// and they cover p.b too, so the LP is 7 as well.
			name:    "essential benchmarks",
			app:     ones("p.a", "p.b", "p.c"),
			benches: map[string][]string{"X": {"p.a", "p.b"}, "Y": {"p.b", "p.c"}, "W": {"p.b"}},
			costs:   map[string]float64{"X": 2, "Y": 5, "W": 0.5},
			cost:    7, lp: 7, essential: 7, cols: 2,
		},
		{
			// Identical benchmarks: the cheapest stands for both, so the
			// column is essential at cost 1, not 3.
			name:    "identical benchmarks keep the cheapest cost",
			app:     ones("p.a"),
			benches: map[string][]string{"D1": {"p.a"}, "D2": {"p.a"}},
			costs:   map[string]float64{"D1": 3, "D2": 1},
			cost:    1, lp: 1, essential: 1, cols: 1,
		},
		{
			// Big covers Small's nodes but costs more: Small is not
			// dominated. LP: x_small + x_big ≥ 1 (p.a), x_big ≥ 1 (p.b)
			// → Big alone, 4; Big is essential.
			name:    "a superset that costs more does not dominate",
			app:     ones("p.a", "p.b"),
			benches: map[string][]string{"Small": {"p.a"}, "Big": {"p.a", "p.b"}},
			costs:   map[string]float64{"Small": 1, "Big": 4},
			cost:    4, lp: 4, essential: 4, cols: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cov := instance(t, tt.app, tt.benches)
			c, err := optimize.CertifyCost(cov, optimize.CertifyOptions{Costs: tt.costs})
			require.NoError(t, err)
			require.True(t, c.Solved, c.Skipped)
			assert.InDelta(t, tt.cost, c.Cost, 1e-12, "cost")
			assert.InDelta(t, tt.lp, c.LP, 1e-9, "LP")
			assert.InDelta(t, max(tt.lp, tt.essential), c.LowerBound, 1e-9, "bound")
			assert.InDelta(t, tt.essential, c.Essential, 1e-12, "essential")
			assert.Equal(t, tt.cols, c.Cols, "columns after the reductions")
			assert.InDelta(t, tt.cost/c.LowerBound, c.Ratio(), 1e-9)
		})
	}
}

func TestCertifyCostSkipsLargeLP(t *testing.T) {
	cov := instance(t, ones("p.a", "p.b", "p.c"),
		map[string][]string{"X": {"p.a", "p.b"}, "Y": {"p.b", "p.c"}, "Z": {"p.a", "p.c"}})
	c, err := optimize.CertifyCost(cov, optimize.CertifyOptions{MaxCells: 5, DefaultCost: 2})
	require.NoError(t, err)
	assert.False(t, c.Solved)
	assert.Equal(t, "LP of 3 rows × 3 columns (18 cells with surplus variables) is over the limit of 5 cells", c.Skipped)
	assert.Zero(t, c.LowerBound, "no essential benchmark")
	assert.Equal(t, 4.0, c.Cost)
	assert.True(t, math.IsInf(c.Ratio(), 1), "a zero bound gives no finite ratio")

	empty := instance(t, ones("p.a"), map[string][]string{"None": {"q.other"}})
	c, err = optimize.CertifyCost(empty, optimize.CertifyOptions{})
	require.NoError(t, err)
	assert.True(t, c.Solved)
	assert.Equal(t, 1.0, c.Ratio(), "nothing to cover costs nothing")
}
