package optimize

import (
	"cmp"
	"math/bits"

	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/internal/lazy"
)

// engine is the one lazy greedy behind [Greedy] and [Select]: Greedy runs
// it with the zero Plan (Algorithm 2), Select with any plan. The order of
// the candidates, ties included, is [before].
type engine struct {
	cov     *coverage.Result
	plan    Plan
	mask    bitset.Set
	costs   []float64
	weights []float64 // nil: count (NodeCount) or the plan's impact (Impact)
	// impact[i] is what application node i is worth under Plan.Impact
	// (coverage.ImpactKind.NodeSeconds), for the Impact objective and the
	// NodeCount tie-break.
	impact []float64
	// words[i] lists the indices of the non-zero words of set i, so an
	// evaluation skips the (many) empty words of a small set.
	words [][]int32
	// initial[i] is set i's key with nothing covered (for the safeguard).
	initial []key
	// only, when not nil, restricts the candidates to the sets it holds
	// (by index): the Cost objective's final ordering pass.
	only bitset.Set
	// excluded holds the sets of Plan.Exclude, never candidates.
	excluded bitset.Set
}

// newEngine prepares the greedy of plan on cov. plan and costs must be
// valid (see [Select]); costs is nil when there are neither costs nor a
// budget.
func newEngine(cov *coverage.Result, plan Plan, costs []float64) *engine {
	e := &engine{cov: cov, plan: plan, mask: cov.ProjectMask, costs: costs, weights: plan.Weights}
	if plan.Nodes == AllNodes {
		e.mask = cov.AllMask
	}
	e.impact = make([]float64, cov.App.Len())
	for i := range cov.App.Nodes {
		e.impact[i] = plan.Impact.NodeSeconds(&cov.App.Nodes[i])
	}
	e.excluded = bitset.New(len(cov.Sets))
	if len(plan.Exclude) > 0 {
		ex := map[string]bool{}
		for _, id := range plan.Exclude {
			ex[id] = true
		}
		for i, s := range cov.Sets {
			if ex[s.ID] {
				e.excluded.Add(i)
			}
		}
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
// covered set grows (costs are fixed and weights non-negative, which
// [Select] checks), so the lexicographic key does too and lazy evaluation
// is exact.
type key struct {
	// ratio is gain/cost under a budget and for Cost, else gain.
	ratio float64
	// gain is the objective's gain.
	gain float64
	// second is the tie-breaker after gain: the added impact (of
	// Plan.Impact) over all nodes for NodeCount without a budget (0 with
	// one) and for Cost, the counted-node gain for Impact and weights.
	second float64
	// count is the number of newly covered counted nodes. It is not part
	// of the order: it equals gain (NodeCount, Cost) or second (Impact,
	// Weights).
	count int
}

// eval returns the key of set i given covered. Times and weights are
// summed in increasing node id order, so equal sets give equal floats.
func (e *engine) eval(i int, covered bitset.Set) key {
	s := e.cov.Sets[i].Nodes
	impact := e.impact
	var k key
	var impactCounted, impactAll, weighted float64
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
		case e.plan.Objective == Impact || e.plan.Objective == Caught:
			for m != 0 {
				impactCounted += impact[wi<<6+bits.TrailingZeros64(m)]
				m &= m - 1
			}
		}
		if e.addedImpactTie() {
			for w != 0 {
				impactAll += impact[wi<<6+bits.TrailingZeros64(w)]
				w &= w - 1
			}
		}
	}
	switch {
	case e.weights != nil:
		k.gain, k.second = weighted, float64(k.count)
	case e.plan.Objective == Impact || e.plan.Objective == Caught:
		k.gain, k.second = impactCounted, float64(k.count)
	default:
		k.gain, k.second = float64(k.count), 0
		if k.count > 0 {
			k.second = impactAll
		}
	}
	if e.plan.Objective == Caught {
		// Caught's ties go to the precise and the cheap (see before),
		// not to the one that catches more functions.
		k.second = 0
	}
	k.ratio = k.gain
	if (e.plan.Budget > 0 || e.plan.Objective == Cost) && k.count > 0 {
		k.ratio = k.gain / e.costs[i]
	}
	return k
}

// addedImpactTie reports whether key.second is the added impact over all
// nodes: for node counts without a budget (Algorithm 2) and for Cost, so
// that with equal costs Cost's greedy is Algorithm 2's.
func (e *engine) addedImpactTie() bool {
	return e.weights == nil && (e.plan.Objective == NodeCount && e.plan.Budget == 0 || e.plan.Objective == Cost)
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
	sel := &Selection{Objective: e.plan.Objective, Nodes: e.plan.Nodes, Impact: e.plan.Impact, Weighted: e.weights != nil, Budget: e.plan.Budget, Covered: covered, Stop: StopComplete}
	var keys []keyedItem
	e.initial = make([]key, len(cov.Sets))
	for i := range cov.Sets {
		if e.only != nil && !e.only.Has(i) || e.excluded.Has(i) {
			continue
		}
		k := e.eval(i, covered)
		e.initial[i] = k
		if k.count > 0 {
			keys = append(keys, keyedItem{index: i, key: k})
		}
	}
	q := lazy.New(keys, func(a, b *keyedItem) bool { return e.before(a.key, a.index, b.key, b.index) })
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

			AddedAttributedImpactSeconds: cov.ImpactOf(coverage.AttributedImpact, added),
			AttributedImpactSeconds:      s.AttributedImpactSeconds,
			AttributedImpactShare:        s.AttributedImpactShare,
		},
		Gain: gain,
		Cost: e.cost(i),
	}
	st.CumulativeProject, st.CumulativeOverall = cov.Ratios(sel.Covered)
	contribution := st.AddedAttributedImpactSeconds
	if e.plan.Impact == coverage.FlatImpact {
		contribution = st.AddedImpactSeconds
	}
	st.Marginal = cov.App.Total > 0 && cov.Share(contribution) < MarginalShare
	if n := len(sel.Steps); n > 0 {
		prev := sel.Steps[n-1]
		st.CumulativeImpactSeconds = prev.CumulativeImpactSeconds
		st.CumulativeAttributedImpactSeconds = prev.CumulativeAttributedImpactSeconds
		st.CumulativeCost = prev.CumulativeCost
		st.CumulativeGain = prev.CumulativeGain
	}
	st.CumulativeImpactSeconds += st.AddedImpactSeconds
	st.CumulativeAttributedImpactSeconds += st.AddedAttributedImpactSeconds
	st.CumulativeCost += st.Cost
	st.CumulativeGain += gain
	sel.Steps = append(sel.Steps, st)
	sel.TotalCost, sel.TotalGain = st.CumulativeCost, st.CumulativeGain
}

// before is the order of the greedy's candidates, ties included, for
// [Greedy] and every [Select] plan; the package documentation ("Ties")
// states it for users. It reports whether candidate a (key ka, set index
// ia) is picked before b:
//
//  1. larger key.ratio: gain per cost under a budget and for Cost, else
//     the gain;
//  2. larger key.gain: counted nodes, their impact (Plan.Impact) or
//     their weights;
//  3. larger key.second: the added impact (Plan.Impact) over all nodes
//     for NodeCount without a budget (0 with one) and for Cost, the
//     counted nodes added for Impact and Weights;
//  4. the smaller benchmark graph ([coverage.Set.GraphNodes]); for
//     [Caught] instead the smaller MDE (Plan.MDEs; a benchmark without one
//     last), then the smaller cost (Plan.Costs; a benchmark without one
//     after every one with one);
//  5. the smaller benchmark id.
//
// Ids are unique, so the order is total and the result deterministic; 1–3
// only shrink as coverage grows and 4–5 are fixed, which keeps the lazy
// queue exact.
func (e *engine) before(ka key, ia int, kb key, ib int) bool {
	switch {
	case ka.ratio != kb.ratio:
		return ka.ratio > kb.ratio
	case ka.gain != kb.gain:
		return ka.gain > kb.gain
	case ka.second != kb.second:
		return ka.second > kb.second
	}
	sa, sb := &e.cov.Sets[ia], &e.cov.Sets[ib]
	if e.plan.Objective == Caught {
		if c := preciseCheap(e.plan, sa.ID, sb.ID); c != 0 {
			return c < 0
		}
	} else if sa.GraphNodes != sb.GraphNodes {
		return sa.GraphNodes < sb.GraphNodes
	}
	return sa.ID < sb.ID
}

// preciseCheap compares benchmarks a and b by [Caught]'s tie rule before
// the id: negative when a goes first (the smaller MDE of plan.MDEs, then
// the smaller cost of plan.Costs; a missing value after a present one),
// positive when b does, 0 on a tie.
func preciseCheap(plan Plan, a, b string) int {
	for _, m := range []map[string]float64{plan.MDEs, plan.Costs} {
		va, oka := m[a]
		vb, okb := m[b]
		switch {
		case oka != okb && oka:
			return -1
		case oka != okb:
			return 1
		case va != vb:
			return cmp.Compare(va, vb)
		}
	}
	return 0
}

type keyedItem struct {
	index int
	key   key
}
