package recommend

import (
	"slices"

	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
)

// AdditionalSet returns the set Algorithm 3 computes for one function in
// its first round, by the search [Additional] runs: the project nodes
// reachable from node in the application graph (node included, paths
// through covered nodes allowed) that are not in covered, as ids in
// increasing order. For the dissertation's Figure 6.2 and node 3 it is
// {3, 5, 6}.
func AdditionalSet(cov *coverage.Result, covered bitset.Set, node int) []int {
	g := cov.App
	var universe []int
	for i, n := range g.Nodes {
		if n.Project && !covered.Has(i) {
			universe = append(universe, i)
		}
	}
	cond := g.Condense()
	nodes := newReach(g, cond, universe).take([]int32{cond.Comp[node]})
	slices.Sort(nodes)
	return nodes
}
