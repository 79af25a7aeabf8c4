package callgraph_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// randomGraph is a graph of about n functions from random stacks that may
// repeat a function (recursion, cycles across stacks).
func randomGraph(t *testing.T, r *rand.Rand, n int) *callgraph.Graph {
	t.Helper()
	var stacks []proftest.Stack
	for range 2 * n {
		depth := 1 + r.IntN(8)
		at := r.IntN(n)
		var frames []string
		for range depth {
			frames = append(frames, fmt.Sprintf("p.f%d", at))
			// Mostly downward (a DAG), sometimes back up (cycles).
			if r.IntN(10) == 0 {
				at = r.IntN(n)
			} else {
				at = min(n-1, at+1+r.IntN(5))
			}
		}
		stacks = append(stacks, proftest.Stack{Frames: frames, Nanos: 1e7})
	}
	g, err := callgraph.New(proftest.Profile(stacks...), callgraph.Options{})
	require.NoError(t, err)
	return g
}

// ReachCounts must agree with a search from every node, for universes of
// any size (several blocks of positions) and order.
func TestReachCountsMatchesSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 40 {
		n, skip := 5+r.IntN(60), 4 // one node in skip is not in the universe
		if trial%13 == 0 {
			n, skip = 1200+r.IntN(300), 16 // over 1,100 positions: two blocks
		}
		g := randomGraph(t, r, n)
		c := g.Condense()
		// A random subset of the nodes in random order.
		var universe []int
		in := make([]bool, g.Len())
		for _, v := range r.Perm(g.Len()) {
			if r.IntN(skip) != 0 {
				universe = append(universe, v)
				in[v] = true
			}
		}
		counts := c.ReachCounts(universe)
		for v := range g.Nodes {
			want := 0
			for _, w := range g.Reachable(v) {
				if in[w] {
					want++
				}
			}
			require.Equal(t, want, counts[c.Comp[v]], "trial %d: node %s, %d of %d nodes in the universe", trial, g.Nodes[v].Name, len(universe), g.Len())
		}
	}
}

func TestReachCountsEmptyUniverse(t *testing.T) {
	g := randomGraph(t, rand.New(rand.NewPCG(3, 4)), 20)
	c := g.Condense()
	counts := c.ReachCounts(nil)
	require.Len(t, counts, len(c.Members))
	for ci, n := range counts {
		require.Zero(t, n, "component %d", ci)
	}
}

// A hand-built graph may leave In and Out nil (or shorter than Nodes): the
// reachability methods read the missing lists as "no edges" instead of
// panicking.
func TestReachabilityWithoutEdgeLists(t *testing.T) {
	nodes := []callgraph.Node{{Name: "p.a"}, {Name: "p.b"}, {Name: "p.c"}}
	tests := []struct {
		name    string
		out, in [][]int32
		// The only edge is a→b, present in the lists given: b has a
		// caller only when In is set, a callee only when Out is.
		roots  []int
		dist   []int
		reachA []int
		comps  int
	}{
		{name: "nil In and Out", roots: []int{0, 1, 2}, dist: []int{0, 0, 0}, reachA: []int{0}, comps: 3},
		{name: "Out only", out: [][]int32{{1}, nil, nil}, roots: []int{0, 1, 2}, dist: []int{0, 0, 0}, reachA: []int{0, 1}, comps: 3},
		{name: "In only", in: [][]int32{nil, {0}, nil}, roots: []int{0, 2}, dist: []int{0, -1, 0}, reachA: []int{0}, comps: 3},
		{name: "short lists", out: [][]int32{{1}}, in: [][]int32{nil, {0}}, roots: []int{0, 2}, dist: []int{0, 1, 0}, reachA: []int{0, 1}, comps: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &callgraph.Graph{Nodes: nodes, Out: tt.out, In: tt.in}
			require.Equal(t, tt.roots, g.Roots(), "Roots")
			require.Equal(t, tt.dist, g.RootDistance(), "RootDistance")
			require.Equal(t, tt.reachA, g.Reachable(0), "Reachable(a)")
			c := g.Condense()
			require.Len(t, c.Members, tt.comps, "Condense: components")
			require.Len(t, c.Comp, len(nodes), "Condense: Comp")
			counts := c.ReachCounts([]int{0, 1, 2})
			require.Equal(t, len(tt.reachA), counts[c.Comp[0]], "ReachCounts of a")
		})
	}
}
