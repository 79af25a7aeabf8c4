package recommend_test

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/testkit/proftest"
)

func figure62(t *testing.T) *coverage.Result {
	t.Helper()
	return proftest.Figure62Coverage()
}

func figIDs(t *testing.T, g *callgraph.Graph, nodes ...int) []int {
	t.Helper()
	var out []int
	for _, n := range nodes {
		id, ok := g.Lookup(proftest.Figure62Name(n))
		require.True(t, ok)
		out = append(out, id)
	}
	sort.Ints(out)
	return out
}

// Section 6.2.3: "the resulting set for function 3 ... would be nodes 3, 5,
// and 6 (node 12 is not a project node and not part of the reachable
// nodes)".
func TestFigure62AdditionalSetOfNode3(t *testing.T) {
	cov := figure62(t)
	n3 := figIDs(t, cov.App, 3)[0]
	assert.Equal(t, figIDs(t, cov.App, 3, 5, 6), recommend.AdditionalSet(cov, cov.Covered, n3))
}

func TestFigure62Recommendations(t *testing.T) {
	cov := figure62(t)
	r := recommend.Additional(cov, cov.Covered, recommend.Options{N: 10})
	require.Len(t, r.Recommendations, 2)

	first := r.Recommendations[0]
	assert.Equal(t, proftest.Figure62Name(1), first.Function)
	assert.Equal(t, proftest.Figure62Module+"/app", first.Package)
	assert.Equal(t, 0, first.Distance)
	assert.Equal(t, 4, first.AddedProject, "1, 3, 5, 6")
	assert.Equal(t, 3, first.AddedExternal, "12, 13, 16 (11 is covered)")
	assert.Equal(t, figIDs(t, cov.App, 1, 3, 5, 6, 12, 13, 16), first.AddedNodes)
	assert.InDelta(t, 0.03, first.ImpactSeconds, 1e-9, "12, 13, 16 end one 10ms stack each")
	assert.Equal(t, coverage.Ratio{Covered: 9, Total: 10, Ratio: 0.9}, first.CumulativeProject)
	assert.Equal(t, 13, first.CumulativeOverall.Covered)

	second := r.Recommendations[1]
	assert.Equal(t, proftest.Figure62Name(8), second.Function)
	assert.Equal(t, 1, second.AddedProject)
	assert.Equal(t, 5, second.AddedExternal, "9, 10, 15, 18, 19")
	assert.Equal(t, 1.0, second.CumulativeProject.Ratio)
	assert.Equal(t, 19, second.CumulativeOverall.Covered)

	assert.Equal(t, 6, cov.Covered.Len(), "the input set is not modified")
}

// graph builds a coverage result over an application graph given as
// root-to-leaf paths; names starting with "p." are project nodes. The
// nodes in covered count as covered by the suite.
func graph(t *testing.T, paths [][]string, covered ...string) (*coverage.Result, bitset.Set) {
	t.Helper()
	var stacks []proftest.Stack
	for _, p := range paths {
		stacks = append(stacks, proftest.Stack{Frames: p, Nanos: 1e7})
	}
	g, err := callgraph.New(proftest.Profile(stacks...), callgraph.Options{Modules: []string{"p"}})
	require.NoError(t, err)
	cov := coverage.Compute(g, nil)
	set := bitset.New(g.Len())
	for _, c := range covered {
		id, ok := g.Lookup(c)
		require.True(t, ok, c)
		set.Add(id)
	}
	return cov, set
}

func TestTieBreaks(t *testing.T) {
	tests := []struct {
		name    string
		paths   [][]string
		covered []string
		n       int
		want    []string
	}{
		{
			name: "equal gain: closer to a root wins",
			paths: [][]string{
				{"x.root", "x.y", "x.z", "p.b", "p.d"},
				{"x.root", "p.z", "p.c"},
			},
			covered: []string{},
			// p.z reaches {z, c} at distance 1, p.b reaches {b, d} at
			// distance 3: both add 2.
			want: []string{"p.z", "p.b"},
		},
		{
			name: "equal gain and distance: more external nodes wins",
			paths: [][]string{
				{"x.root", "p.a", "p.c"},
				{"x.root", "p.b", "p.d"},
				{"x.root", "p.b", "x.e1"},
				{"x.root", "p.b", "x.e2"},
				{"x.root", "p.a", "x.e3"},
			},
			want: []string{"p.b", "p.a"},
		},
		{
			name: "full tie: smaller name wins",
			paths: [][]string{
				{"x.root", "p.m", "p.c"},
				{"x.root", "p.k", "p.d"},
			},
			want: []string{"p.k", "p.m"},
		},
		{
			name: "reach passes through covered nodes",
			paths: [][]string{
				{"x.root", "p.a", "p.cov", "p.d", "p.e"},
				{"x.root", "p.b", "p.f"},
			},
			covered: []string{"p.cov"},
			// p.a adds a, d, e (3) through the covered p.cov.
			want: []string{"p.a", "p.b"},
		},
		{
			name: "gains are re-evaluated after each pick",
			paths: [][]string{
				{"x.root", "p.a", "p.s1", "p.s2", "p.s3"},
				{"x.root", "p.b", "p.s3"},
				{"x.root", "p.b", "p.t1"},
				{"x.root", "p.b", "p.t2"},
				{"x.root", "p.c", "p.u1"},
			},
			// a adds 4 {a,s1,s2,s3}, b adds 4 {b,s3,t1,t2}: a wins by name.
			// Then b adds only 3 {b,t1,t2}, c adds 2.
			want: []string{"p.a", "p.b", "p.c"},
		},
		{
			name: "limit n",
			paths: [][]string{
				{"x.root", "p.a"},
				{"x.root", "p.b"},
				{"x.root", "p.c"},
			},
			n:    2,
			want: []string{"p.a", "p.b"},
		},
		{
			name:    "nothing left to cover",
			paths:   [][]string{{"x.root", "p.a"}},
			covered: []string{"p.a"},
			want:    nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cov, covered := graph(t, tt.paths, tt.covered...)
			r := recommend.Additional(cov, covered, recommend.Options{N: tt.n})
			var got []string
			for _, rec := range r.Recommendations {
				got = append(got, rec.Function)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// eager recomputes every candidate's sets by graph search each round: the
// reference the lazy, condensed version must match exactly.
func eager(cov *coverage.Result, covered bitset.Set, n int) []string {
	g := cov.App
	dist := g.RootDistance()
	return eagerRounds(covered, n, func(done bitset.Set) []pick {
		var cands []pick
		for v, node := range g.Nodes {
			if !node.Project || done.Has(v) {
				continue
			}
			c := pick{name: node.Name, dist: dist[v]}
			for _, w := range g.Reachable(v) {
				if !done.Has(w) {
					c.add(g, w)
				}
			}
			cands = append(cands, c)
		}
		return cands
	})
}

// A pick is a candidate of one round of the eager references: its name,
// the functions it would add (set: gain in the project, ext outside) and
// its distance from a root (-1: none reaches it).
type pick struct {
	name            string
	set             []int
	gain, ext, dist int
}

// add counts node w of g as one that c would add.
func (c *pick) add(g *callgraph.Graph, w int) {
	c.set = append(c.set, w)
	if g.Nodes[w].Project {
		c.gain++
	} else {
		c.ext++
	}
}

// outranks reports whether c beats best (nil: no candidate yet): more
// project gain first, then reached from a root before not reached, then
// nearer a root, then more external functions, then the smaller name.
func (c pick) outranks(best *pick) bool {
	switch {
	case best == nil || c.gain != best.gain:
		return best == nil || c.gain > best.gain
	case c.dist != best.dist && (c.dist < 0 || best.dist < 0):
		return best.dist < 0
	case c.dist != best.dist:
		return c.dist < best.dist
	case c.ext != best.ext:
		return c.ext > best.ext
	}
	return c.name < best.name
}

// eagerRounds picks, until it has n (n <= 0: no limit) or round offers no
// candidate, the candidate that outranks the others among those round
// offers given what is covered so far, and covers its set.
func eagerRounds(covered bitset.Set, n int, round func(done bitset.Set) []pick) []string {
	done := covered.Clone()
	var out []string
	for n <= 0 || len(out) < n {
		var best *pick
		for _, c := range round(done) {
			if c.outranks(best) {
				best = &c
			}
		}
		if best == nil {
			break
		}
		out = append(out, best.name)
		for _, w := range best.set {
			done.Add(w)
		}
	}
	return out
}

// On random small graphs the lazy search picks what the eager references
// pick, for function targets (eager) and callable targets (eagerCallable,
// whose names include closures "p.fK.funcN").
func TestLazyMatchesEager(t *testing.T) {
	tests := []struct {
		name                      string
		seed                      int64
		trials                    int
		nodes, maxPaths, maxDepth int
		fname                     func(i int) string
		targets                   recommend.Targets
		eager                     func(*coverage.Result, bitset.Set, int) []string
	}{
		{"functions", 7, 150, 30, 12, 6, func(i int) string {
			if i%3 == 0 {
				return fmt.Sprintf("x.n%02d", i)
			}
			return fmt.Sprintf("p.n%02d", i)
		}, recommend.AnyFunction, eager},
		{"callable", 9, 200, 40, 15, 8, func(i int) string {
			switch i % 4 {
			case 0:
				return fmt.Sprintf("x.n%02d", i)
			case 1:
				return fmt.Sprintf("p.f%02d.func%d", i/8, 1+i%3)
			}
			return fmt.Sprintf("p.f%02d", i/2)
		}, recommend.Callable, eagerCallable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(tt.seed))
			for trial := 0; trial < tt.trials; trial++ {
				nodes := 4 + rng.Intn(tt.nodes)
				cov, covered := randomGraph(t, rng, nodes, tt.maxPaths, tt.maxDepth, tt.fname)
				limit := rng.Intn(5)
				res := recommend.Additional(cov, covered, recommend.Options{N: limit, Targets: tt.targets})
				matchesEager(t, trial, res, covered, tt.eager(cov, covered, limit))
			}
		})
	}
}

// randomGraph draws 1 to maxPaths paths from x.root, each through 1 to
// maxDepth of the functions name(0..nodes-1) picked at random (so cycles
// happen), and builds their graph with about one node in four covered.
func randomGraph(t *testing.T, rng *rand.Rand, nodes, maxPaths, maxDepth int, name func(int) string) (*coverage.Result, bitset.Set) {
	var paths [][]string
	for s := 0; s < 1+rng.Intn(maxPaths); s++ {
		path := []string{"x.root"}
		for d := 0; d < 1+rng.Intn(maxDepth); d++ {
			path = append(path, name(rng.Intn(nodes)))
		}
		paths = append(paths, path)
	}
	return coverRandomly(t, rng, paths, 4)
}

// coverRandomly builds the graph of paths and marks each of its nodes
// covered with probability 1/oneIn.
func coverRandomly(t *testing.T, rng *rand.Rand, paths [][]string, oneIn int) (*coverage.Result, bitset.Set) {
	cov, covered := graph(t, paths)
	for i := range cov.App.Nodes {
		if rng.Intn(oneIn) == 0 {
			covered.Add(i)
		}
	}
	return cov, covered
}

// matchesEager checks the lazy result res, computed from covered, against
// want, the eager reference's picks: the same functions in the same order,
// each recommendation's AddedNodes sorted and as many as its project and
// external additions, and Covered adding exactly the recommended nodes.
func matchesEager(t *testing.T, trial int, res *recommend.Result, covered bitset.Set, want []string) {
	t.Helper()
	var got []string
	added := 0
	for _, rec := range res.Recommendations {
		got = append(got, rec.Function)
		require.Len(t, rec.AddedNodes, rec.AddedProject+rec.AddedExternal, "trial %d: %s", trial, rec.Function)
		require.True(t, slices.IsSorted(rec.AddedNodes), "trial %d", trial)
		added += len(rec.AddedNodes)
	}
	require.Equal(t, want, got, "trial %d", trial)
	require.Equal(t, covered.Len()+added, res.Covered.Len(), "trial %d: Covered adds exactly the recommended nodes", trial)
}

// Larger graphs than TestLazyMatchesEager's (about 140 nodes, up to 19
// recommendations), with long chains and some cycles, often until nothing
// is left: the first keys' external counts are upper bounds and later
// searches skip regions with nothing left to add, and neither may change a
// pick or its figures.
func TestLazyMatchesEagerDeep(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	for trial := 0; trial < 120; trial++ {
		nodes := 100 + rng.Intn(300)
		name := func(i int) string {
			if i%4 == 0 {
				return fmt.Sprintf("x.n%03d", i)
			}
			return fmt.Sprintf("p.n%03d", i)
		}
		var paths [][]string
		for s := 0; s < 20+rng.Intn(130); s++ {
			path := []string{"x.root"}
			at := rng.Intn(nodes)
			for d := 0; d < 1+rng.Intn(30); d++ {
				path = append(path, name(at))
				if rng.Intn(20) == 0 {
					at = rng.Intn(nodes) // anywhere, so cycles happen
				} else {
					at = min(nodes-1, at+1+rng.Intn(3)) // down a chain
				}
			}
			paths = append(paths, path)
		}
		cov, covered := coverRandomly(t, rng, paths, 3)
		limit := rng.Intn(4) // 0: until nothing is left
		res := recommend.Additional(cov, covered, recommend.Options{N: limit})
		matchesEager(t, trial, res, covered, eager(cov, covered, limit))
	}
}
