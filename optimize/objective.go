package optimize

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/mbopt/mbopt/bitset"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/lazy"
)

// Objective says what a pick of [Select] gains.
type Objective int

const (
	// NodeCount gains one per newly covered counted node: the paper's
	// Algorithm 2.
	NodeCount Objective = iota
	// Impact gains the application flat time of the newly covered counted
	// nodes, so the greedy maximises covered application CPU time.
	Impact
)

// String returns "nodes" or "impact".
func (o Objective) String() string {
	switch o {
	case NodeCount:
		return "nodes"
	case Impact:
		return "impact"
	}
	return fmt.Sprintf("Objective(%d)", int(o))
}

// ParseObjective parses "nodes" or "impact".
func ParseObjective(s string) (Objective, error) {
	switch s {
	case "nodes":
		return NodeCount, nil
	case "impact":
		return Impact, nil
	}
	return 0, fmt.Errorf("invalid objective %q: valid values are {nodes|impact}", s)
}

// Plan configures [Select]. The zero value is Algorithm 2 on project nodes:
// Select then picks exactly what [Greedy] picks.
type Plan struct {
	// Nodes selects the counted nodes, as in [Options].
	Nodes Nodes
	// Objective selects the gain of a pick.
	Objective Objective
	// Weights, when not nil, replaces the objective's per-node gain:
	// Weights[i] is what covering application node i is worth (for
	// example the summed weights of the scenarios that contain it). Only
	// counted nodes gain. Its length must be the application's node count.
	Weights []float64
	// Budget, when positive, bounds the summed cost of the picks (in the
	// unit of Costs, seconds by convention) and turns the greedy into the
	// cost-effectiveness greedy with the single-best-set safeguard; see
	// the package documentation.
	Budget float64
	// Costs maps benchmark ids to their cost (seconds of running time).
	// Costs must be positive. Only needed with a Budget; without one they
	// are recorded in the steps.
	Costs map[string]float64
	// DefaultCost is the cost of a benchmark missing from Costs. When it
	// is 0, a Budget with a benchmark missing from Costs is an error that
	// names the benchmark.
	DefaultCost float64
	// Top, when positive, stops after that many picks.
	Top int
	// MinGain, when positive, stops at the first pick that would add fewer
	// than MinGain counted nodes (that pick is not taken).
	MinGain int
}

// Stop says why [Select] ended.
type Stop string

// The reasons a selection ends.
const (
	// StopComplete: no benchmark adds a counted node any more, so the
	// picks cover everything the suite covers.
	StopComplete Stop = "complete"
	// StopTop: Plan.Top picks were made.
	StopTop Stop = "top"
	// StopMinGain: the next pick would have added fewer than Plan.MinGain
	// counted nodes.
	StopMinGain Stop = "min-gain"
	// StopBudget: benchmarks would still add nodes but none fits in the
	// remaining budget.
	StopBudget Stop = "budget"
)

// SelectedStep is one pick of [Select]: the [Step] fields plus what the
// objective and the budget saw.
type SelectedStep struct {
	Step
	// Gain is the objective's gain of the pick (counted nodes, their flat
	// time, or their summed Weights).
	Gain float64
	// Cost is the benchmark's cost (0 without Costs and DefaultCost);
	// CumulativeCost sums it over the picks so far.
	Cost, CumulativeCost float64
	// CumulativeGain sums Gain over the picks so far.
	CumulativeGain float64
}

// Selection is the outcome of [Select]: the picks in order, so Steps[:k]
// trace the objective's coverage curve.
type Selection struct {
	Objective Objective
	Nodes     Nodes
	// Weighted reports whether Plan.Weights was given.
	Weighted bool
	// Budget is Plan.Budget (0: none).
	Budget float64
	Steps  []SelectedStep
	// Covered holds the application nodes covered by all picks.
	Covered bitset.Set
	// TotalCost and TotalGain sum the picks' costs and gains.
	TotalCost, TotalGain float64
	// Stop says why the selection ended.
	Stop Stop
	// Safeguard reports that, under a Budget, the best single benchmark
	// gained more than the cost-effectiveness greedy and was returned
	// instead; GreedyGain is what the greedy had reached.
	Safeguard  bool
	GreedyGain float64
}

// IDs returns the picked benchmark ids in pick order.
func (s *Selection) IDs() []string {
	ids := make([]string, len(s.Steps))
	for i, st := range s.Steps {
		ids[i] = st.ID
	}
	return ids
}

// Result returns the picks as a plain [Result], for code that renders
// Algorithm 2's output.
func (s *Selection) Result() *Result {
	r := &Result{Nodes: s.Nodes, Covered: s.Covered}
	for _, st := range s.Steps {
		r.Steps = append(r.Steps, st.Step)
	}
	return r
}

// Select runs the greedy described by plan on cov. With the zero Plan it
// returns the same picks as [Greedy]: Select generalises Algorithm 2
// beyond the paper.
//
// # Objectives
//
// With [NodeCount] a pick gains the number of counted nodes it newly
// covers (the paper). With [Impact] it gains their application flat time,
// so the picks maximise covered application CPU time: a benchmark that
// covers one hot function beats one that covers three cold ones. With
// Plan.Weights it gains the summed weights of those nodes (package
// coverage derives per-scenario weights). Every variant keeps going, after
// the gains of the objective are exhausted, while a pick still adds a
// counted node, so without Top, MinGain or Budget the picks always reach
// the suite's full coverage.
//
// # Budget
//
// With a Budget, Select solves budgeted maximum coverage: pick benchmarks
// whose summed cost fits the budget and whose gain is largest. It runs the
// cost-effectiveness greedy of Khuller, Moss and Naor ("The budgeted
// maximum coverage problem", IPL 70(1), 1999): repeatedly take the
// benchmark with the largest gain per cost among those that still fit the
// remaining budget (a benchmark that does not fit is dropped for good, as
// the remaining budget only shrinks). That greedy alone can be arbitrarily
// bad (a cheap benchmark with a slightly better ratio can use up the room
// of a large one), so Select also takes the single benchmark with the
// largest gain that fits and returns it instead when it gains strictly
// more ([Selection.Safeguard]). The better of the two gains at least
// (1 − 1/e)/2 ≈ 0.316 of the best gain any selection within the budget
// achieves; that is the guarantee. It is not a guarantee on the suite's
// running time beyond the budget itself, and costs are what was measured
// once (noisy). The 1 − 1/e algorithm that enumerates all triples first
// costs O(B³) and is not used.
//
// # Top and MinGain
//
// Top stops after Top picks: Steps[:Top] is exactly the prefix the
// unbounded greedy would take. MinGain stops at the first pick that adds
// fewer than MinGain counted nodes (the TCC study dropped picks adding
// three or fewer: MinGain 4). Under Impact the picks are ordered by time,
// so a later pick could add more nodes again; Select still stops there.
//
// # Ties
//
// Among candidates with the same key the order is: larger gain per cost
// (under a budget), larger gain, then the second criterion — for NodeCount
// the added impact over all nodes (as [Greedy]; under a budget, where ties
// on gain per cost are rare, this criterion is skipped to keep evaluations
// cheap), for Impact and Weights the number of counted nodes added — then
// the smaller benchmark graph, then the smaller id. The order is total, so the result is
// deterministic. All key parts only shrink as coverage grows (costs are
// fixed), so the lazy evaluation of [Greedy] stays exact.
//
// Select fails, naming the benchmark, when
// a Budget is set and a benchmark has no cost (and no DefaultCost) or a
// non-positive one, and when a numeric setting is negative. It panics if
// Weights has the wrong length.
//
// Cost: like [Greedy], a lazy greedy — a few set scans per pick.
func Select(cov *coverage.Result, plan Plan) (*Selection, error) {
	if plan.Budget < 0 || math.IsNaN(plan.Budget) {
		return nil, fmt.Errorf("budget must be positive (or 0 for none), not %g", plan.Budget)
	}
	if plan.Top < 0 {
		return nil, fmt.Errorf("top must be positive (or 0 for no limit), not %d", plan.Top)
	}
	if plan.MinGain < 0 {
		return nil, fmt.Errorf("min-gain must be positive (or 0 for none), not %d", plan.MinGain)
	}
	if plan.Weights != nil && len(plan.Weights) != cov.App.Len() {
		panic(fmt.Sprintf("optimize: %d weights for %d application nodes", len(plan.Weights), cov.App.Len()))
	}
	costs, err := benchmarkCosts(cov, plan)
	if err != nil {
		return nil, err
	}
	e := newEngine(cov, plan, costs)
	sel := e.run()
	if plan.Budget > 0 {
		e.safeguard(sel)
	}
	return sel, nil
}

// benchmarkCosts returns the cost of every set of cov (by index); nil when
// there are neither costs nor a budget.
func benchmarkCosts(cov *coverage.Result, plan Plan) ([]float64, error) {
	if plan.Costs == nil && plan.DefaultCost == 0 && plan.Budget == 0 {
		return nil, nil
	}
	if plan.DefaultCost < 0 || math.IsNaN(plan.DefaultCost) {
		return nil, fmt.Errorf("default cost must be positive, not %g", plan.DefaultCost)
	}
	costs := make([]float64, len(cov.Sets))
	var missing, bad []string
	for i, s := range cov.Sets {
		c, ok := plan.Costs[s.ID]
		switch {
		case !ok:
			c = plan.DefaultCost
			if c == 0 && plan.Budget > 0 {
				missing = append(missing, s.ID)
			}
		case !(c > 0) || math.IsInf(c, 0):
			bad = append(bad, fmt.Sprintf("%s (%g)", s.ID, c))
		}
		costs[i] = c
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("%d benchmark cost(s) are not positive finite seconds: %s", len(bad), list(bad))
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%d benchmark(s) have no cost, which a budget needs: %s; give their cost or a default cost", len(missing), list(missing))
	}
	return costs, nil
}

// list joins up to five items and says how many more there are.
func list(items []string) string {
	if len(items) <= 5 {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:5], ", "), len(items)-5)
}

// engine is the lazy greedy shared by every objective.
type engine struct {
	cov     *coverage.Result
	plan    Plan
	mask    bitset.Set
	costs   []float64
	weights []float64 // nil: count (NodeCount) or flat (Impact)
	// words[i] lists the indices of the non-zero words of set i, so an
	// evaluation skips the (many) empty words of a small set.
	words [][]int32
	// initial[i] is set i's key with nothing covered (for the safeguard).
	initial []key
}

func newEngine(cov *coverage.Result, plan Plan, costs []float64) *engine {
	e := &engine{cov: cov, plan: plan, mask: cov.ProjectMask, costs: costs, weights: plan.Weights}
	if plan.Nodes == AllNodes {
		e.mask = cov.AllMask
	}
	e.words = make([][]int32, len(cov.Sets))
	for i := range cov.Sets {
		for wi, w := range cov.Sets[i].Nodes {
			if w != 0 {
				e.words[i] = append(e.words[i], int32(wi))
			}
		}
	}
	return e
}

// key is a candidate's greedy key. Every component only shrinks as the
// covered set grows (costs are fixed), so the lexicographic key does too
// and lazy evaluation is exact.
type key struct {
	// ratio is gain/cost under a budget, else gain.
	ratio float64
	// gain is the objective's gain.
	gain float64
	// second is the tie-breaker after gain: the added impact over all
	// nodes for NodeCount, the counted-node gain for Impact and weights.
	second float64
	// count is the number of newly covered counted nodes.
	count int
}

// eval returns the key of set i given covered.
func (e *engine) eval(i int, covered bitset.Set) key {
	s := e.cov.Sets[i].Nodes
	nodes := e.cov.App.Nodes
	var k key
	var flatCounted, flatAll, weighted float64
	for _, w32 := range e.words[i] {
		wi := int(w32)
		w := s[wi] &^ covered[wi]
		if w == 0 {
			continue
		}
		m := w & e.mask[wi]
		k.count += bits.OnesCount64(m)
		switch {
		case e.weights != nil:
			for m != 0 {
				weighted += e.weights[wi<<6+bits.TrailingZeros64(m)]
				m &= m - 1
			}
		case e.plan.Objective == Impact:
			for m != 0 {
				flatCounted += nodes[wi<<6+bits.TrailingZeros64(m)].Flat
				m &= m - 1
			}
		}
		if e.weights == nil && e.plan.Objective == NodeCount && e.plan.Budget == 0 {
			for w != 0 {
				flatAll += nodes[wi<<6+bits.TrailingZeros64(w)].Flat
				w &= w - 1
			}
		}
	}
	switch {
	case e.weights != nil:
		k.gain, k.second = weighted, float64(k.count)
	case e.plan.Objective == Impact:
		k.gain, k.second = flatCounted, float64(k.count)
	default:
		k.gain, k.second = float64(k.count), 0
		if k.count > 0 {
			k.second = flatAll
		}
	}
	k.ratio = k.gain
	if e.plan.Budget > 0 {
		k.ratio = k.gain / e.costs[i]
	}
	return k
}

func (e *engine) cost(i int) float64 {
	if e.costs == nil {
		return 0
	}
	return e.costs[i]
}

// run is the lazy greedy: pop the top, re-evaluate it if stale, take it if
// fresh.
func (e *engine) run() *Selection {
	cov := e.cov
	covered := bitset.New(cov.App.Len())
	sel := &Selection{Objective: e.plan.Objective, Nodes: e.plan.Nodes, Weighted: e.weights != nil, Budget: e.plan.Budget, Covered: covered, Stop: StopComplete}
	var keys []keyedItem
	e.initial = make([]key, len(cov.Sets))
	for i := range cov.Sets {
		k := e.eval(i, covered)
		e.initial[i] = k
		if k.count > 0 {
			keys = append(keys, keyedItem{index: i, key: k})
		}
	}
	q := lazy.New(keys, func(a, b *keyedItem) bool { return before(cov.Sets, a.key, a.index, b.key, b.index) })
	remaining := e.plan.Budget
	skipped := false // a candidate that still gained was dropped for the budget
	for {
		top, ok := q.Top(func(c *keyedItem) bool {
			c.key = e.eval(c.index, covered)
			return c.key.count > 0
		})
		if !ok {
			break
		}
		if e.plan.Budget > 0 && e.costs[top.index] > remaining*(1+1e-12) {
			// The remaining budget only shrinks: it never fits again.
			q.Drop()
			skipped = true
			continue
		}
		if e.plan.Top > 0 && len(sel.Steps) == e.plan.Top {
			sel.Stop = StopTop
			return sel
		}
		if e.plan.MinGain > 0 && top.key.count < e.plan.MinGain {
			sel.Stop = StopMinGain
			return sel
		}
		c := q.Take()
		remaining -= e.cost(c.index)
		e.take(sel, c.index, c.key.gain)
	}
	if skipped {
		sel.Stop = StopBudget
	}
	return sel
}

// take appends set i to sel as the next pick and updates sel.Covered.
func (e *engine) take(sel *Selection, i int, gain float64) {
	cov := e.cov
	s := &cov.Sets[i]
	added := s.Nodes.Clone()
	added.AndNot(sel.Covered)
	sel.Covered.Or(s.Nodes)
	st := SelectedStep{
		Step: Step{
			ID:                 s.ID,
			Index:              i,
			Added:              added.IntersectionLen(e.mask),
			AddedProject:       added.IntersectionLen(cov.ProjectMask),
			AddedOverall:       added.Len(),
			AddedNodes:         added.Elems(),
			AddedImpactSeconds: cov.Impact(added),
			ImpactSeconds:      s.ImpactSeconds,
			ImpactShare:        s.ImpactShare,
		},
		Gain: gain,
		Cost: e.cost(i),
	}
	st.CumulativeProject, st.CumulativeOverall = cov.Ratios(sel.Covered)
	if n := len(sel.Steps); n > 0 {
		prev := sel.Steps[n-1]
		st.CumulativeImpactSeconds = prev.CumulativeImpactSeconds
		st.CumulativeCost = prev.CumulativeCost
		st.CumulativeGain = prev.CumulativeGain
	}
	st.CumulativeImpactSeconds += st.AddedImpactSeconds
	st.CumulativeCost += st.Cost
	st.CumulativeGain += gain
	sel.Steps = append(sel.Steps, st)
	sel.TotalCost, sel.TotalGain = st.CumulativeCost, st.CumulativeGain
}

// compare orders keys: larger ratio, gain, second and count first. It
// returns 0 when they are equal.
func (k key) compare(o key) int {
	switch {
	case k.ratio != o.ratio:
		return cmpDesc(k.ratio, o.ratio)
	case k.gain != o.gain:
		return cmpDesc(k.gain, o.gain)
	case k.second != o.second:
		return cmpDesc(k.second, o.second)
	case k.count != o.count:
		return cmpDesc(float64(k.count), float64(o.count))
	}
	return 0
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}

// before reports whether candidate a (key ka, set index ia) is picked
// before b: by key, then smaller benchmark graph, then smaller id.
func before(sets []coverage.Set, ka key, ia int, kb key, ib int) bool {
	if c := ka.compare(kb); c != 0 {
		return c < 0
	}
	sa, sb := &sets[ia], &sets[ib]
	if sa.GraphNodes != sb.GraphNodes {
		return sa.GraphNodes < sb.GraphNodes
	}
	return sa.ID < sb.ID
}

type keyedItem struct {
	index int
	key   key
}
