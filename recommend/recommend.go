// Package recommend suggests which uncovered functions deserve a
// microbenchmark next.
//
// [Additional] implements Algorithm 3 of Grambow's dissertation (2024,
// section 6.2.3), an adaptation of Rothermel's "additional" greedy for test
// prioritisation: start from the application's project nodes that no
// benchmark covers; for each, the uncovered project nodes reachable from it
// in the application call graph (itself included) are what a benchmark of
// that function would add, assuming it calls what the application calls;
// recommend the function whose set is largest, remove that set from the
// uncovered nodes, and repeat until n functions are recommended or nothing
// is left to add.
//
// # Ties
//
// As the paper says, among functions that add equally many project nodes
// the one closer to a root (a node without callers: the shortest call
// distance from any root) wins — a function nearer the entry points is an
// easier benchmark target — then the one that adds more external nodes
// (reachable external nodes covered neither by the suite nor by an earlier
// recommendation), and last the smaller function name. Functions no root
// reaches (only possible inside a cycle without entry) count as infinitely
// far.
//
// # Cost
//
// Reachability is computed once: strongly connected components are
// condensed and each component's reachable uncovered nodes are a bitset
// built bottom-up over the DAG. The greedy is lazy as in package optimize,
// since gains only shrink. Memory is at most components × uncovered nodes
// bits, less where call chains share sets.
package recommend

import (
	"slices"

	"github.com/mbopt/mbopt/bitset"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/lazy"
)

// Options configures [Additional].
type Options struct {
	// N is the largest number of recommendations; 0 or less means no
	// limit (recommend until every project node is covered).
	N int
}

// Recommendation is one recommended function and what a benchmark of it
// would add.
type Recommendation struct {
	// Function is the node's name, Package its package, Node its id in
	// the application graph.
	Function, Package string
	Node              int
	// Distance is the shortest call distance from a root, -1 if none.
	Distance int
	// AddedProject and AddedExternal count the newly covered project and
	// external application nodes.
	AddedProject, AddedExternal int
	// AddedNodes lists those nodes' ids in increasing order.
	AddedNodes []int
	// ImpactSeconds is the application flat time of AddedNodes;
	// ImpactShare the same as a share of the application's total.
	ImpactSeconds, ImpactShare float64
	// CumulativeProject and CumulativeOverall are the coverage of the
	// starting set plus this and all earlier recommendations.
	CumulativeProject, CumulativeOverall coverage.Ratio
}

// Result lists the recommendations in pick order (the dissertation's
// Figure 6.7 curve is their cumulative coverage).
type Result struct {
	Recommendations []Recommendation
	// Covered holds the starting coverage plus all recommended additions.
	Covered bitset.Set
}

// Additional runs Algorithm 3 on the application graph of cov, starting
// from the nodes in covered (usually cov.Covered, the whole suite's
// coverage, or an optimize.Result's Covered). covered is not modified.
func Additional(cov *coverage.Result, covered bitset.Set, opts Options) *Result {
	g := cov.App
	done := covered.Clone()
	res := &Result{Covered: done}

	// The universe of the reach sets: uncovered project nodes first, then
	// uncovered external nodes.
	var universe []int
	for i, n := range g.Nodes {
		if n.Project && !covered.Has(i) {
			universe = append(universe, i)
		}
	}
	nproj := len(universe)
	if nproj == 0 {
		return res
	}
	for i, n := range g.Nodes {
		if !n.Project && !covered.Has(i) {
			universe = append(universe, i)
		}
	}
	pmask := bitset.New(len(universe))
	xmask := bitset.New(len(universe))
	for k := range universe {
		if k < nproj {
			pmask.Add(k)
		} else {
			xmask.Add(k)
		}
	}
	taken := bitset.New(len(universe)) // universe positions covered by picks

	cond := g.Condense()
	reach := cond.ReachSets(universe)
	dist := g.RootDistance()

	eval := func(c *candidate) {
		r := reach[cond.Comp[c.node]]
		c.gain = r.AndNotLen(pmask, taken)
		c.ext = r.AndNotLen(xmask, taken)
	}
	keys := make([]candidate, 0, nproj)
	for _, v := range universe[:nproj] {
		c := candidate{node: v, dist: dist[v], name: g.Nodes[v].Name}
		eval(&c)
		keys = append(keys, c)
	}
	q := lazy.New(keys, better)
	for opts.N <= 0 || len(res.Recommendations) < opts.N {
		_, ok := q.Top(func(c *candidate) bool { eval(c); return c.gain > 0 })
		if !ok {
			break
		}
		c := q.Take()
		added := reach[cond.Comp[c.node]].Clone()
		added.AndNot(taken)
		taken.Or(added)
		nodes := make([]int, 0, c.gain+c.ext)
		added.Each(func(k int) { nodes = append(nodes, universe[k]) })
		slices.Sort(nodes)
		for _, v := range nodes {
			done.Add(v)
		}
		node := g.Nodes[c.node]
		rec := Recommendation{
			Function:      node.Name,
			Package:       node.Package,
			Node:          c.node,
			Distance:      c.dist,
			AddedProject:  c.gain,
			AddedExternal: c.ext,
			AddedNodes:    nodes,
		}
		for _, v := range nodes {
			rec.ImpactSeconds += g.Nodes[v].Flat
		}
		rec.ImpactShare = cov.Share(rec.ImpactSeconds)
		rec.CumulativeProject, rec.CumulativeOverall = cov.Ratios(done)
		res.Recommendations = append(res.Recommendations, rec)
	}
	return res
}

type candidate struct {
	node int
	gain int
	dist int
	ext  int
	name string
}

// better orders by more project nodes added, shorter root distance (-1
// last), more external nodes added, smaller name.
func better(a, b *candidate) bool {
	if a.gain != b.gain {
		return a.gain > b.gain
	}
	if a.dist != b.dist {
		if a.dist < 0 || b.dist < 0 {
			return b.dist < 0
		}
		return a.dist < b.dist
	}
	if a.ext != b.ext {
		return a.ext > b.ext
	}
	return a.name < b.name
}

// AdditionalSet returns the set Algorithm 3 computes for one function in its
// first round: the project nodes reachable from node in the application
// graph (node included, paths through covered nodes allowed) that are not
// in covered, as ids in increasing order. For the dissertation's Figure 6.2
// and node 3 it is {3, 5, 6}. Cost O(V+E).
func AdditionalSet(cov *coverage.Result, covered bitset.Set, node int) []int {
	var out []int
	for _, v := range cov.App.Reachable(node) {
		if cov.App.Nodes[v].Project && !covered.Has(v) {
			out = append(out, v)
		}
	}
	return out
}
