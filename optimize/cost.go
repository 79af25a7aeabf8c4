package optimize

import (
	"math/bits"
	"slices"

	"github.com/mbopt/mbopt/internal/bitset"
)

// cheapest runs the [Cost] objective (see [Select]): the cost-weighted
// greedy (e.run with plan.Objective Cost), the reverse-delete pass on its
// picks, the same pass on Algorithm 2's picks as the safeguard, and the
// final ordering of the cheaper suite. e.costs holds a positive cost for
// every set that covers a counted node.
func (e *engine) cheapest() *Selection {
	greedy := e.run()
	keep, dropped := e.prune(greedy.Steps)
	alg2 := newEngine(e.cov, Plan{Nodes: e.plan.Nodes, Impact: e.plan.Impact, Exclude: e.plan.Exclude}, nil).run()
	keep2, dropped2 := e.prune(alg2.Steps)
	greedyCost, alg2Cost := e.sum(keep), e.sum(keep2)
	safeguard := alg2Cost < greedyCost
	if safeguard {
		keep, dropped = keep2, dropped2
	}

	// Order the kept benchmarks as the cost-weighted greedy takes them
	// when they are the only candidates. They are irredundant, so every
	// one of them still adds a counted node and all are taken.
	final := &engine{cov: e.cov, plan: e.plan, mask: e.mask, costs: e.costs, words: e.words, impact: e.impact,
		only: bitset.New(len(e.cov.Sets)), excluded: e.excluded}
	for _, i := range keep {
		final.only.Add(i)
	}
	sel := final.run()
	sel.Safeguard = safeguard
	sel.GreedyCost = greedyCost
	for _, i := range dropped {
		sel.Dropped = append(sel.Dropped, e.cov.Sets[i].ID)
	}
	return sel
}

// prune is the reverse-delete pass: it visits the picks from the most
// expensive to the cheapest (equal costs: the later pick first) and drops
// each one whose counted nodes the picks still kept all cover. It returns
// the kept set indices in increasing order and the dropped ones in the
// order they were dropped. The kept picks cover the same counted nodes as
// all picks and none of them is redundant: dropping one only makes the
// others more needed, so a pick kept once stays needed.
func (e *engine) prune(steps []SelectedStep) (keep, dropped []int) {
	order := make([]int, len(steps)) // positions in pick order
	for p := range order {
		order[p] = p
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ca, cb := e.cost(steps[a].Index), e.cost(steps[b].Index)
		switch {
		case ca > cb:
			return -1
		case ca < cb:
			return 1
		}
		return b - a // the later pick first
	})
	// times[v] counts the kept picks that cover counted node v.
	times := make([]int32, e.cov.App.Len())
	counted := func(i int, f func(v int)) {
		s := e.cov.Sets[i].Nodes
		for _, wi := range e.words[i] {
			for m := s[wi] & e.mask[wi]; m != 0; m &= m - 1 {
				f(int(wi)<<6 + bits.TrailingZeros64(m))
			}
		}
	}
	for _, st := range steps {
		counted(st.Index, func(v int) { times[v]++ })
	}
	removed := make([]bool, len(steps))
	for _, p := range order {
		i := steps[p].Index
		redundant := true
		counted(i, func(v int) { redundant = redundant && times[v] > 1 })
		if !redundant {
			continue
		}
		counted(i, func(v int) { times[v]-- })
		removed[p] = true
		dropped = append(dropped, i)
	}
	for p, st := range steps {
		if !removed[p] {
			keep = append(keep, st.Index)
		}
	}
	slices.Sort(keep)
	return keep, dropped
}

// sum returns the summed cost of the sets, in the order given (increasing
// index from prune), so equal suites give equal floats.
func (e *engine) sum(sets []int) float64 {
	total := 0.0
	for _, i := range sets {
		total += e.cost(i)
	}
	return total
}
