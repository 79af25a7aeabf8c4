package callgraph

import (
	"slices"

	"github.com/mbopt/mbopt/bitset"
)

// Roots returns the ids of the nodes without callers (entry points such as
// runtime.goexit or a thread's start function), in increasing order.
func (g *Graph) Roots() []int {
	var roots []int
	for i := range g.Nodes {
		if len(g.In[i]) == 0 {
			roots = append(roots, i)
		}
	}
	return roots
}

// RootDistance returns, for every node, the number of edges on a shortest
// path from any root (see [Graph.Roots]) to it: 0 for roots, -1 for nodes no
// root reaches (possible only in a cycle without entry). Cost O(V+E).
func (g *Graph) RootDistance() []int {
	dist := make([]int, len(g.Nodes))
	for i := range dist {
		dist[i] = -1
	}
	queue := g.Roots()
	for _, r := range queue {
		dist[r] = 0
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range g.Out[n] {
			if dist[m] < 0 {
				dist[m] = dist[n] + 1
				queue = append(queue, int(m))
			}
		}
	}
	return dist
}

// Reachable returns the ids of the nodes reachable from id, id included, in
// increasing order. Cost O(V+E); use [Graph.Condense] for many queries.
func (g *Graph) Reachable(id int) []int {
	seen := bitset.New(len(g.Nodes))
	seen.Add(id)
	stack := []int{id}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, m := range g.Out[n] {
			if !seen.Has(int(m)) {
				seen.Add(int(m))
				stack = append(stack, int(m))
			}
		}
	}
	return seen.Elems()
}

// Condensation is the DAG of a graph's strongly connected components.
type Condensation struct {
	// Comp[i] is the component of node i. Components are numbered in
	// reverse topological order: every edge leads from a component to one
	// with a smaller or equal number, so component 0 is a sink.
	Comp []int32
	// Members[c] lists the nodes of component c in increasing order.
	Members [][]int32
	// Out[c] lists the components that c has edges to, excluding c, in
	// increasing order without duplicates.
	Out [][]int32
}

// Condense computes the strongly connected components of g with an
// iterative version of Tarjan's algorithm (no recursion, so call chains of
// any depth are safe) in O(V+E). The numbering depends only on node ids, so
// it is deterministic.
func (g *Graph) Condense() *Condensation {
	n := len(g.Nodes)
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	comp := make([]int32, n)
	for i := range index {
		index[i] = -1
	}
	var (
		next    int32
		ncomp   int32
		stack   []int32
		members [][]int32
	)
	type frame struct {
		v    int32
		edge int
	}
	var call []frame
	for root := 0; root < n; root++ {
		if index[root] >= 0 {
			continue
		}
		call = append(call[:0], frame{v: int32(root)})
		index[root], low[root] = next, next
		next++
		stack = append(stack, int32(root))
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.edge < len(g.Out[v]) {
				w := g.Out[v][f.edge]
				f.edge++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{v: w})
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			// v is finished.
			if low[v] == index[v] {
				var m []int32
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = ncomp
					m = append(m, w)
					if w == v {
						break
					}
				}
				sortInt32(m)
				members = append(members, m)
				ncomp++
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				if low[v] < low[u] {
					low[u] = low[v]
				}
			}
		}
	}
	c := &Condensation{Comp: comp, Members: members, Out: make([][]int32, ncomp)}
	last := make([]int32, ncomp)
	for i := range last {
		last[i] = -1
	}
	for ci := int32(0); ci < ncomp; ci++ {
		for _, v := range members[ci] {
			for _, w := range g.Out[v] {
				cw := comp[w]
				if cw != ci && last[cw] != ci {
					last[cw] = ci
					c.Out[ci] = append(c.Out[ci], cw)
				}
			}
		}
		sortInt32(c.Out[ci])
	}
	return c
}

// ReachSets returns, for every component of c, the set of positions in
// universe of the nodes reachable from it (its own members included):
// position k stands for node universe[k]. Restricting the universe to the
// nodes a caller counts keeps the memory at |components| × |universe| bits.
// Nodes of one component share one set, and the sets may share storage:
// treat them as read-only. Cost O((C+E_c) × |universe|/64).
func (c *Condensation) ReachSets(universe []int) []bitset.Set {
	pos := make(map[int32]int, len(universe))
	for k, v := range universe {
		pos[int32(v)] = k
	}
	sets := make([]bitset.Set, len(c.Members))
	empty := bitset.New(len(universe))
	// Components are numbered in reverse topological order, so successors
	// are complete before their predecessors. Sets are never modified once
	// built, so a component that adds nothing of its own to a single
	// successor's set shares it instead of copying it: call chains cost
	// one set, not one per link.
	for ci := range c.Members {
		own := false
		for _, v := range c.Members[ci] {
			if _, ok := pos[v]; ok {
				own = true
				break
			}
		}
		if !own && len(c.Out[ci]) <= 1 {
			if len(c.Out[ci]) == 0 {
				sets[ci] = empty
			} else {
				sets[ci] = sets[c.Out[ci][0]]
			}
			continue
		}
		s := bitset.New(len(universe))
		for _, v := range c.Members[ci] {
			if k, ok := pos[v]; ok {
				s.Add(k)
			}
		}
		for _, cw := range c.Out[ci] {
			s.Or(sets[cw])
		}
		sets[ci] = s
	}
	return sets
}

func sortInt32(s []int32) { slices.Sort(s) }
