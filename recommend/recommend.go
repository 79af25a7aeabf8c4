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
// Memory is linear in the application graph: no reach set is ever held.
// Strongly connected components are condensed once; the first gains come
// from [callgraph.Condensation.ReachCounts], which counts every
// component's reachable uncovered project nodes block by block in
// O((C+E) × P/64) time (C components, E edges, P uncovered project nodes).
// The greedy is lazy as in package optimize, since gains only shrink: a
// candidate is re-evaluated only when its stale key reaches the top, by a
// search of the condensed graph that skips components whose reach has
// nothing left to add (every component a recommendation reaches becomes
// one), so later searches get cheaper as recommendations cover the graph.
package recommend

import (
	"slices"

	"github.com/mbopt/mbopt/bitset"
	"github.com/mbopt/mbopt/callgraph"
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
	// Function is the node's name, Package its package.
	Function, Package string
	// Node is the function's node id in the application graph.
	Node int
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
	// Recommendations are the picks in order.
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

	// The universe: uncovered project nodes first, then uncovered
	// external nodes.
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

	cond := g.Condense()
	gains := cond.ReachCounts(universe[:nproj])
	dist := g.RootDistance()
	r := newReach(g, cond, universe)

	// The first keys: exact gains, and as external nodes every uncovered
	// one, an upper bound. So they start stale, and a candidate's exact
	// key is computed when it first reaches the top: only candidates that
	// tie on gain and distance with the first pick need a search.
	keys := make([]candidate, 0, nproj)
	for _, v := range universe[:nproj] {
		keys = append(keys, candidate{node: v, dist: dist[v], name: g.Nodes[v].Name, gain: gains[cond.Comp[v]], ext: len(universe) - nproj})
	}
	q := lazy.New(keys, better)
	q.MarkStale()
	for opts.N <= 0 || len(res.Recommendations) < opts.N {
		_, ok := q.Top(func(c *candidate) bool {
			c.gain, c.ext = r.count(cond.Comp[c.node])
			return c.gain > 0
		})
		if !ok {
			break
		}
		c := q.Take()
		nodes := r.take(cond.Comp[c.node])
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

// reach answers, for a component of the condensed application graph, how
// many open nodes (in the universe and not yet taken by a recommendation)
// it reaches, by a search of the DAG that never enters a dead component:
// one whose reach holds no open node. Nodes only close, so a component
// stays dead once it is; every component a recommendation reaches dies
// with it. Memory is O(V), whatever the universe.
type reach struct {
	cond *callgraph.Condensation
	// open[v] reports that node v is in the universe and not taken;
	// openProject[ci] and openExternal[ci] count component ci's open
	// members by kind.
	open                      []bool
	openProject, openExternal []int32
	dead                      []bool
	// seen[ci] == round marks the components visited by the current
	// search.
	seen  []uint32
	round uint32
	stack []frame
}

// frame is a component on the search stack: the index of its next
// out-edge, and whether an open node was found at or below it.
type frame struct {
	comp  int32
	edge  int
	alive bool
}

func newReach(g *callgraph.Graph, cond *callgraph.Condensation, universe []int) *reach {
	nc := len(cond.Members)
	r := &reach{
		cond:         cond,
		open:         make([]bool, g.Len()),
		openProject:  make([]int32, nc),
		openExternal: make([]int32, nc),
		dead:         make([]bool, nc),
		seen:         make([]uint32, nc),
	}
	for _, v := range universe {
		r.open[v] = true
		if g.Nodes[v].Project {
			r.openProject[cond.Comp[v]]++
		} else {
			r.openExternal[cond.Comp[v]]++
		}
	}
	return r
}

// walk visits every component reachable from root that is not dead, each
// once, calling visit(ci) on entry; components found to reach no open node
// are marked dead on the way out.
func (r *reach) walk(root int32, visit func(ci int32)) {
	if r.dead[root] {
		return
	}
	r.round++
	r.seen[root] = r.round
	visit(root)
	r.stack = append(r.stack[:0], frame{comp: root, alive: r.openProject[root]+r.openExternal[root] > 0})
	for len(r.stack) > 0 {
		f := &r.stack[len(r.stack)-1]
		if out := r.cond.Out[f.comp]; f.edge < len(out) {
			cw := out[f.edge]
			f.edge++
			switch {
			case r.dead[cw]:
			case r.seen[cw] == r.round:
				// Finished already (the condensation is acyclic) and
				// not dead: it reaches an open node.
				f.alive = true
			default:
				r.seen[cw] = r.round
				visit(cw)
				r.stack = append(r.stack, frame{comp: cw, alive: r.openProject[cw]+r.openExternal[cw] > 0})
			}
			continue
		}
		done := *f
		r.stack = r.stack[:len(r.stack)-1]
		if !done.alive {
			r.dead[done.comp] = true
		} else if len(r.stack) > 0 {
			r.stack[len(r.stack)-1].alive = true
		}
	}
}

// count returns the open project and external nodes reachable from
// component root.
func (r *reach) count(root int32) (project, external int) {
	r.walk(root, func(ci int32) {
		project += int(r.openProject[ci])
		external += int(r.openExternal[ci])
	})
	return project, external
}

// take closes the open nodes reachable from component root and returns
// them (in no particular order). Every component it reaches is dead
// afterwards.
func (r *reach) take(root int32) []int {
	var nodes []int
	r.walk(root, func(ci int32) {
		if r.openProject[ci]+r.openExternal[ci] > 0 {
			for _, v := range r.cond.Members[ci] {
				if r.open[v] {
					r.open[v] = false
					nodes = append(nodes, int(v))
				}
			}
			r.openProject[ci], r.openExternal[ci] = 0, 0
		}
		r.dead[ci] = true
	})
	return nodes
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
