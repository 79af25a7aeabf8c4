package optimize

// safeguard finishes a budgeted selection: it finds the single benchmark
// with the largest gain (from nothing covered) whose cost fits the budget
// and, when that gain beats the cost-effectiveness greedy's total, returns
// it alone instead. This is what lifts the greedy's guarantee from
// unbounded to (1 − 1/e)/2 of the best selection within the budget
// (Khuller, Moss and Naor, 1999); see [Select].
func (e *engine) safeguard(sel *Selection) {
	sel.GreedyGain = sel.TotalGain
	best, bestKey := -1, key{}
	for i := range e.cov.Sets {
		if e.costs[i] > e.plan.Budget*(1+1e-12) {
			continue
		}
		k := e.initial[i]
		if k.count == 0 || (e.plan.MinGain > 0 && k.count < e.plan.MinGain) {
			continue
		}
		// Rank by gain, not by gain per cost: the safeguard is about the
		// largest single gain.
		k.ratio = k.gain
		if best < 0 || e.before(k, i, bestKey, best) {
			best, bestKey = i, k
		}
	}
	if best < 0 || !(bestKey.gain > sel.TotalGain) {
		return
	}
	single := &Selection{
		Objective: sel.Objective, Nodes: sel.Nodes, Weighted: sel.Weighted, Budget: sel.Budget,
		Covered: make([]uint64, len(sel.Covered)), Stop: StopBudget,
		Safeguard: true, GreedyGain: sel.GreedyGain,
	}
	e.take(single, best, bestKey.gain)
	*sel = *single
}
