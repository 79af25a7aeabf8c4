package callgraph_test

import (
	"errors"
	"sort"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/testkit/proftest"
)

const tol = 1e-9

func fig(n int) string { return proftest.Figure62Name(n) }

func ids(t *testing.T, g *callgraph.Graph, nodes ...int) []int {
	t.Helper()
	var out []int
	for _, n := range nodes {
		id, ok := g.Lookup(fig(n))
		require.True(t, ok, "node %d missing", n)
		out = append(out, id)
	}
	sort.Ints(out)
	return out
}

func TestFigure62Graph(t *testing.T) {
	app, _, _ := proftest.Figure62()
	g, err := callgraph.New(app, callgraph.Options{Modules: []string{proftest.Figure62Module}})
	require.NoError(t, err)

	assert.Equal(t, 19, g.Len())
	assert.Equal(t, 10, g.ProjectLen())
	assert.Equal(t, ids(t, g, 1, 8), g.Roots(), "entry points")
	assert.Equal(t, ids(t, g, 3, 5, 6, 12, 16), g.Reachable(ids(t, g, 3)[0]))
	assert.InDelta(t, 0.09, g.Total, tol, "9 stacks of 10ms")
	assert.Equal(t, 9, g.Samples)

	n17 := g.Nodes[ids(t, g, 17)[0]]
	assert.True(t, n17.Project)
	assert.Equal(t, proftest.Figure62Module+"/app", n17.Package)
	assert.InDelta(t, 0.03, n17.Flat, tol, "17 ends three stacks")
	assert.InDelta(t, 0.03, n17.Cum, tol)
	n3 := g.Nodes[ids(t, g, 3)[0]]
	assert.InDelta(t, 0, n3.Flat, tol)
	assert.InDelta(t, 0.02, n3.Cum, tol, "3 appears twice in one stack but counts once")
	assert.False(t, g.Nodes[ids(t, g, 12)[0]].Project)

	var flat float64
	edges := 0
	for i, n := range g.Nodes {
		flat += n.Flat
		edges += len(g.Out[i])
	}
	assert.InDelta(t, g.Total, flat, tol, "flat times add up to the total")
	assert.Equal(t, 20, edges, "the edges listed in proftest.Figure62")

	dist := g.RootDistance()
	assert.Equal(t, 0, dist[ids(t, g, 8)[0]])
	assert.Equal(t, 1, dist[ids(t, g, 3)[0]])
	assert.Equal(t, 1, dist[ids(t, g, 17)[0]], "8→17 is shorter than 1→4→14→17")
	assert.Equal(t, 3, dist[ids(t, g, 6)[0]])
}

func TestNodesSortedByName(t *testing.T) {
	app, _, _ := proftest.Figure62()
	g, err := callgraph.New(app, callgraph.Options{})
	require.NoError(t, err)
	for i := 1; i < g.Len(); i++ {
		assert.Less(t, g.Nodes[i-1].Name, g.Nodes[i].Name)
	}
	assert.Equal(t, 0, g.ProjectLen(), "no module given: everything is external")
}

func TestInlinedFramesAreNodes(t *testing.T) {
	p := proftest.Profile(proftest.Stack{Frames: []string{"m/a.Main", "m/a.Outer+m/a.Inlined", "m/b.Leaf"}, Nanos: 1e7})
	g, err := callgraph.New(p, callgraph.Options{Modules: []string{"m/a"}})
	require.NoError(t, err)
	names := []string{}
	for _, n := range g.Nodes {
		names = append(names, n.Name)
	}
	assert.Equal(t, []string{"m/a.Inlined", "m/a.Main", "m/a.Outer", "m/b.Leaf"}, names)
	inl, _ := g.Lookup("m/a.Inlined")
	outer, _ := g.Lookup("m/a.Outer")
	leaf, _ := g.Lookup("m/b.Leaf")
	assert.Equal(t, []int32{int32(inl)}, g.Out[outer], "outer calls its inlined callee")
	assert.Equal(t, []int32{int32(leaf)}, g.Out[inl])
	assert.False(t, g.Nodes[leaf].Project, "m/b is not below m/a")
}

// TestInlinedFlag: a function is Inlined only when no location of any
// merged profile has it as the physical frame.
func TestInlinedFlag(t *testing.T) {
	tests := []struct {
		name    string
		stacks  [][]string
		inlined map[string]bool
	}{
		{"inlined everywhere", [][]string{{"m.Main", "m.Outer+m.In"}, {"m.Main", "m.Other+m.In"}},
			map[string]bool{"m.In": true, "m.Outer": false, "m.Other": false, "m.Main": false}},
		{"once physical", [][]string{{"m.Main", "m.Outer+m.In"}, {"m.Main", "m.In"}},
			map[string]bool{"m.In": false, "m.Outer": false}},
		{"inlined twice deep", [][]string{{"m.Main+m.Mid+m.In"}},
			map[string]bool{"m.In": true, "m.Mid": true, "m.Main": false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ps []*profile.Profile
			for _, st := range tt.stacks {
				ps = append(ps, proftest.Profile(proftest.Stack{Frames: st, Nanos: 1e7}))
			}
			g, err := callgraph.Merge(ps, callgraph.Options{Modules: []string{"m"}})
			require.NoError(t, err)
			for name, want := range tt.inlined {
				id, ok := g.Lookup(name)
				require.True(t, ok, name)
				assert.Equal(t, want, g.Nodes[id].Inlined, name)
			}
		})
	}
}

func TestGenericInstantiationsShareANode(t *testing.T) {
	p := proftest.Profile(
		proftest.Stack{Frames: []string{"m.Main", "m.Sum[go.shape.int]"}, Nanos: 1e7},
		proftest.Stack{Frames: []string{"m.Main", "m.Sum[go.shape.float64]"}, Nanos: 2e7},
		proftest.Stack{Frames: []string{"m.Main", "m.Sum[...]"}, Nanos: 3e7},
	)
	g, err := callgraph.New(p, callgraph.Options{})
	require.NoError(t, err)
	assert.Equal(t, 2, g.Len())
	id, ok := g.Lookup("m.Sum[...]")
	require.True(t, ok)
	assert.InDelta(t, 0.06, g.Nodes[id].Flat, tol)
}

func TestMergeAddsUp(t *testing.T) {
	app, b1, _ := proftest.Figure62()
	g, err := callgraph.Merge([]*profile.Profile{app, b1}, callgraph.Options{})
	require.NoError(t, err)
	assert.Equal(t, 21, g.Len(), "19 app nodes + BenchmarkOne + testing.(*B).runN")
	assert.InDelta(t, 0.10, g.Total, tol)
	id, _ := g.Lookup(fig(14))
	assert.InDelta(t, 0.01, g.Nodes[id].Flat, tol, "14 is the leaf of the benchmark's stack")
	assert.InDelta(t, 0.02, g.Nodes[id].Cum, tol)
}

func TestRejectsNonCPUAndEmpty(t *testing.T) {
	heap := proftest.Profile(proftest.Stack{Frames: []string{"m.Main", "m.Alloc"}, Nanos: 64})
	heap.SampleType = []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}}
	heap.Sample[0].Value = []int64{1, 64}
	_, err := callgraph.New(heap, callgraph.Options{})
	assert.True(t, errors.Is(err, callgraph.ErrNotCPU), "got %v", err)
	assert.ErrorContains(t, err, "alloc_objects/count alloc_space/bytes")

	g, err := callgraph.New(heap, callgraph.Options{AllowNonCPU: true})
	require.NoError(t, err)
	assert.Equal(t, "bytes", g.Unit)
	assert.InDelta(t, 64, g.Total, tol, "weighted by the last sample type")

	empty := proftest.Profile()
	_, err = callgraph.New(empty, callgraph.Options{})
	assert.True(t, errors.Is(err, callgraph.ErrEmpty), "got %v", err)
	g, err = callgraph.New(empty, callgraph.Options{AllowEmpty: true})
	require.NoError(t, err)
	assert.Equal(t, 0, g.Len())
}

func TestCondense(t *testing.T) {
	app, _, _ := proftest.Figure62()
	g, err := callgraph.New(app, callgraph.Options{})
	require.NoError(t, err)
	c := g.Condense()
	cycle := ids(t, g, 3, 5, 6)
	assert.Equal(t, c.Comp[cycle[0]], c.Comp[cycle[1]])
	assert.Equal(t, c.Comp[cycle[0]], c.Comp[cycle[2]])
	assert.Len(t, c.Members, 17, "19 nodes, one 3-node cycle")
	for ci, outs := range c.Out {
		for _, co := range outs {
			assert.Less(t, co, int32(ci), "reverse topological numbering")
		}
	}
	universe := make([]int, g.Len())
	for i := range universe {
		universe[i] = i
	}
	counts := c.ReachCounts(universe)
	for i := range g.Nodes {
		assert.Len(t, g.Reachable(i), counts[c.Comp[i]], "reach of %s", g.Nodes[i].Name)
	}
	// Node 3 reaches 3, 5, 6 (a cycle) and 12; not 2.
	counts = c.ReachCounts(ids(t, g, 2, 5, 12))
	assert.Equal(t, 2, counts[c.Comp[ids(t, g, 3)[0]]], "5 and 12")
}

func TestNoEdges(t *testing.T) {
	app, _, _ := proftest.Figure62()
	full, err := callgraph.New(app, callgraph.Options{})
	require.NoError(t, err)
	nodesOnly, err := callgraph.New(app, callgraph.Options{NoEdges: true})
	require.NoError(t, err)
	require.Equal(t, full.Len(), nodesOnly.Len())
	for i := range full.Nodes {
		assert.Equal(t, full.Nodes[i], nodesOnly.Nodes[i])
		assert.Empty(t, nodesOnly.Out[i])
		assert.Empty(t, nodesOnly.In[i])
	}
}

// SamplesTaken sums the samples/count values (a Go CPU profile keeps one
// sample per distinct stack), and Duration the profiles' DurationNanos.
func TestSamplesTakenAndDuration(t *testing.T) {
	// 30 ms and 50 ms at the 10 ms period: 3 + 5 samples in 2 records.
	p := func(dur int64) *profile.Profile {
		p := proftest.Profile(
			proftest.Stack{Frames: []string{"main.main", "main.a"}, Nanos: 30e6},
			proftest.Stack{Frames: []string{"main.main", "main.b"}, Nanos: 50e6},
		)
		p.DurationNanos = dur
		return p
	}
	noCount := p(0)
	noCount.SampleType = noCount.SampleType[1:]
	for i := range noCount.Sample {
		noCount.Sample[i].Value = noCount.Sample[i].Value[1:]
	}
	tests := []struct {
		name     string
		profiles []*profile.Profile
		records  int
		taken    int64
		duration float64
	}{
		{"one profile", []*profile.Profile{p(2_500_000_000)}, 2, 8, 2.5},
		{"merged profiles add up", []*profile.Profile{p(2_500_000_000), p(1_000_000_000)}, 4, 16, 3.5},
		{"no duration recorded", []*profile.Profile{p(0)}, 2, 8, 0},
		{"no samples/count type: one per record", []*profile.Profile{noCount}, 2, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := callgraph.Merge(tt.profiles, callgraph.Options{})
			require.NoError(t, err)
			assert.Equal(t, tt.records, g.Samples, "Samples")
			assert.Equal(t, tt.taken, g.SamplesTaken, "SamplesTaken")
			assert.InDelta(t, tt.duration, g.Duration, tol, "Duration")
		})
	}
}

// TestAttributed is the worked example of "Attributed time" in the package
// documentation, plus a sample whose leaf frame has no name, computed by
// hand: each sample is charged to its innermost project frame.
func TestAttributed(t *testing.T) {
	p := proftest.Profile(
		// 10ms to p.B: the runtime leaf below it is its time.
		proftest.Stack{Frames: []string{"p.A", "p.B", "runtime.mallocgc"}, Nanos: 10e6},
		// 20ms to p.B, inlined into p.C and still the innermost project frame.
		proftest.Stack{Frames: []string{"p.A", "p.C+p.B", "bytes.Equal"}, Nanos: 20e6},
		// 30ms to p.C, once although it recurses.
		proftest.Stack{Frames: []string{"p.A", "p.C", "p.C", "runtime.memmove"}, Nanos: 30e6},
		// 40ms to no node: no project frame.
		proftest.Stack{Frames: []string{"runtime.gcBgMarkWorker"}, Nanos: 40e6},
		// 50ms to p.A, whose callee has no name (Flat: Unattributed).
		proftest.Stack{Frames: []string{"p.A", "?"}, Nanos: 50e6},
		// 60ms to p.C: the leaf location is p.C with runtime.growslice
		// inlined into it, so the innermost project frame is the physical
		// one, not p.D above it.
		proftest.Stack{Frames: []string{"p.D", "p.C+runtime.growslice"}, Nanos: 60e6},
	)
	for _, f := range p.Function {
		if f.Name == "?" {
			f.Name, f.SystemName = "", ""
		}
	}
	g, err := callgraph.New(p, callgraph.Options{Modules: []string{"p"}})
	require.NoError(t, err)
	want := map[string]struct{ attributed, flat float64 }{
		"p.A":                    {0.050, 0},
		"p.B":                    {0.030, 0},
		"p.C":                    {0.090, 0},
		"p.D":                    {0, 0},
		"runtime.mallocgc":       {0, 0.010},
		"bytes.Equal":            {0, 0.020},
		"runtime.memmove":        {0, 0.030},
		"runtime.gcBgMarkWorker": {0, 0.040},
		"runtime.growslice":      {0, 0.060},
	}
	require.Equal(t, len(want), g.Len())
	var attributed, flat float64
	for _, n := range g.Nodes {
		w, ok := want[n.Name]
		require.True(t, ok, "unexpected node %s", n.Name)
		assert.InDelta(t, w.attributed, n.Attributed, tol, "%s.Attributed", n.Name)
		assert.InDelta(t, w.flat, n.Flat, tol, "%s.Flat", n.Name)
		attributed += n.Attributed
		flat += n.Flat
	}
	assert.InDelta(t, 0.210, g.Total, tol)
	assert.InDelta(t, 0.040, g.OutsideProject, tol, "the GC worker's sample")
	assert.InDelta(t, 0.050, g.Unattributed, tol, "the sample with an unnamed leaf")
	assert.InDelta(t, g.Total, attributed+g.OutsideProject, tol, "Σ Attributed + OutsideProject = Total")
	assert.InDelta(t, g.Total, flat+g.Unattributed, tol, "Σ Flat + Unattributed = Total")

	// Merging adds up on both sides; without modules nothing is attributed.
	m, err := callgraph.Merge([]*profile.Profile{p, p}, callgraph.Options{Modules: []string{"p"}})
	require.NoError(t, err)
	id, _ := m.Lookup("p.B")
	assert.InDelta(t, 0.060, m.Nodes[id].Attributed, tol)
	assert.InDelta(t, 0.080, m.OutsideProject, tol)
	none, err := callgraph.New(p, callgraph.Options{})
	require.NoError(t, err)
	assert.InDelta(t, none.Total, none.OutsideProject, tol, "no project node: all time is outside the project")
}

// TestAttributedExcluded: an excluded package (a workload driver in the
// module) is no project frame, so a sample goes to the innermost project
// frame on its stack, or outside the project when it has none.
func TestAttributedExcluded(t *testing.T) {
	p := proftest.Profile(
		// 10ms: the driver calls p.A, which owns the runtime leaf.
		proftest.Stack{Frames: []string{"p/cmd/load.Run", "p.A", "runtime.memclr"}, Nanos: 10e6},
		// 20ms in the driver itself: p.A above it owns it.
		proftest.Stack{Frames: []string{"p.A", "p/cmd/load.step"}, Nanos: 20e6},
		// 30ms in the driver with no project frame: outside the project.
		proftest.Stack{Frames: []string{"p/cmd/load.Run", "fmt.Sprintf"}, Nanos: 30e6},
	)
	g, err := callgraph.New(p, callgraph.Options{Modules: []string{"p"}, Exclude: []string{"p/cmd/..."}})
	require.NoError(t, err)
	a, _ := g.Lookup("p.A")
	assert.InDelta(t, 0.030, g.Nodes[a].Attributed, tol)
	for _, name := range []string{"p/cmd/load.Run", "p/cmd/load.step"} {
		id, _ := g.Lookup(name)
		assert.False(t, g.Nodes[id].Project, name)
		assert.Zero(t, g.Nodes[id].Attributed, name)
	}
	assert.InDelta(t, 0.030, g.OutsideProject, tol)
}
