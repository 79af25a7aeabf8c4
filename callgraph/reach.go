package callgraph

import (
	"math/bits"
	"slices"

	"github.com/mbopt/mbopt/internal/bitset"
)

// out returns the callees of node i, nil when g has no Out lists (a graph
// built by hand or with [Options.NoEdges]).
func (g *Graph) out(i int) []int32 {
	if i < len(g.Out) {
		return g.Out[i]
	}
	return nil
}

// in returns the callers of node i, nil when g has no In lists.
func (g *Graph) in(i int) []int32 {
	if i < len(g.In) {
		return g.In[i]
	}
	return nil
}

// Roots returns the ids of the nodes without callers (entry points such as
// runtime.goexit or a thread's start function), in increasing order. Like
// every reachability method, it reads a nil In or Out (or a list missing
// at the end) as "no edges": in a graph without edges every node is a
// root.
func (g *Graph) Roots() []int {
	var roots []int
	for i := range g.Nodes {
		if len(g.in(i)) == 0 {
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
		for _, m := range g.out(n) {
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
		for _, m := range g.out(n) {
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
			if out := g.out(int(v)); f.edge < len(out) {
				w := out[f.edge]
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
				slices.Sort(m)
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
			for _, w := range g.out(int(v)) {
				cw := comp[w]
				if cw != ci && last[cw] != ci {
					last[cw] = ci
					c.Out[ci] = append(c.Out[ci], cw)
				}
			}
		}
		slices.Sort(c.Out[ci])
	}
	return c
}

// reachBlockWords is the width, in 64-bit words, of the slice of the
// universe [Condensation.ReachCounts] handles per pass: 1,024 positions,
// two cache lines per component.
const reachBlockWords = 16

// ReachCounts returns, for every component ci of c, the number of nodes
// of universe reachable from it, its own members included. universe must
// not repeat a node.
//
// The reach sets themselves are never held: one pass over the DAG per
// block of universe positions computes every component's reach within
// that block, bottom-up (components are numbered in reverse topological
// order), and adds its size to the counts. Memory is O(V + C × 128 bytes)
// whatever the universe's size, where holding a set per component would
// take C × |universe| bits; time is O((C + E_c) × |universe|/64), the same
// as building those sets.
func (c *Condensation) ReachCounts(universe []int) []int {
	nc := len(c.Members)
	counts := make([]int, nc)
	if len(universe) == 0 {
		return counts
	}
	// own[start[ci]:start[ci+1]] lists the universe positions of
	// component ci's members, in increasing order.
	start := make([]int32, nc+1)
	for _, v := range universe {
		start[c.Comp[v]+1]++
	}
	for ci := range nc {
		start[ci+1] += start[ci]
	}
	own := make([]int32, len(universe))
	fill := slices.Clone(start[:nc])
	for k, v := range universe {
		ci := c.Comp[v]
		own[fill[ci]] = int32(k)
		fill[ci]++
	}
	next := slices.Clone(start[:nc]) // next[ci]: ci's first position not yet in a block

	const blockBits = reachBlockWords * 64
	blocks := make([][reachBlockWords]uint64, nc)
	nonzero := make([]bool, nc) // blocks[ci] has a bit set
	for lo := 0; lo < len(universe); lo += blockBits {
		for ci := range nc {
			b := &blocks[ci]
			*b = [reachBlockWords]uint64{}
			nz := false
			for ; next[ci] < start[ci+1] && int(own[next[ci]]) < lo+blockBits; next[ci]++ {
				k := int(own[next[ci]]) - lo
				b[k>>6] |= 1 << (k & 63)
				nz = true
			}
			for _, cw := range c.Out[ci] {
				if !nonzero[cw] {
					continue
				}
				s := &blocks[cw]
				for w := range b {
					b[w] |= s[w]
				}
				nz = true
			}
			nonzero[ci] = nz
			if !nz {
				continue
			}
			for _, x := range b {
				counts[ci] += bits.OnesCount64(x)
			}
		}
	}
	return counts
}
