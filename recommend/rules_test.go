package recommend_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/recommend"
)

// set returns the ids of names in g as a set.
func set(t *testing.T, g *callgraph.Graph, names ...string) bitset.Set {
	t.Helper()
	s := bitset.New(g.Len())
	for _, n := range names {
		id, ok := g.Lookup(n)
		require.True(t, ok, n)
		s.Add(id)
	}
	return s
}

// nodeNames returns the names of ids.
func nodeNames(g *callgraph.Graph, ids []int) []string {
	var out []string
	for _, v := range ids {
		out = append(out, g.Nodes[v].Name)
	}
	return out
}

// The fsync-style store: the application commits (encode, writeMeta,
// fsync) and reads; a thin benchmark was seen only in Commit and the
// syscall, never in writeMeta.
var storePaths = [][]string{
	{"x.main", "p.(*DB).Update", "p.(*Tx).Commit", "p.encode"},
	{"x.main", "p.(*DB).Update", "p.(*Tx).Commit", "p.writeMeta", "x.fsync"},
	{"x.main", "p.(*DB).Update", "p.(*Tx).Commit", "x.sort", "p.less"},
	{"x.main", "p.(*DB).View", "p.get"},
	{"x.main", "x.goexit", "p.background"},
}

func TestUnseen(t *testing.T) {
	tests := []struct {
		name    string
		covered []string // by the whole suite (the thin benchmark included)
		thin    []string // by the thin benchmark
		want    []string
	}{
		{
			name:    "what a covered project node reaches, through covered and external nodes",
			covered: []string{"p.(*DB).Update", "p.(*Tx).Commit", "p.encode", "x.fsync"},
			thin:    []string{"p.(*DB).Update", "p.(*Tx).Commit", "x.fsync"},
			want:    []string{"p.less", "p.writeMeta", "x.sort"},
		},
		{
			name:    "external nodes start nothing: the runtime reaches everything",
			covered: []string{"x.main", "x.goexit", "p.(*Tx).Commit"},
			thin:    []string{"x.main", "x.goexit"},
		},
		{
			name:    "covered nodes are not unseen",
			covered: []string{"p.(*Tx).Commit", "p.encode", "p.writeMeta", "x.fsync", "x.sort", "p.less"},
			thin:    []string{"p.(*Tx).Commit"},
		},
		{
			name:    "a leaf covers nothing beyond itself",
			covered: []string{"p.get"},
			thin:    []string{"p.get"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cov, _ := graph(t, storePaths)
			g := cov.App
			got := recommend.Unseen(g, set(t, g, tt.covered...), set(t, g, tt.thin...))
			if len(tt.want) == 0 {
				assert.Empty(t, nodeNames(g, got))
				return
			}
			assert.Equal(t, tt.want, nodeNames(g, got))
		})
	}
}

// A function only a thin profile could have run is not recommended with
// callable targets; the paper's targets recommend it and name the thin
// benchmark.
func TestThinWithheld(t *testing.T) {
	cov, _ := graph(t, storePaths)
	g := cov.App
	covered := set(t, g, "x.main", "p.(*DB).Update", "p.(*Tx).Commit", "p.encode", "x.fsync", "p.(*DB).View", "p.get")
	thin := []recommend.Thin{{ID: "BenchmarkCommit", Covered: set(t, g, "p.(*DB).Update", "p.(*Tx).Commit", "x.fsync")}}

	tests := []struct {
		name     string
		opts     recommend.Options
		want     []string
		unseen   [][]string
		withheld []string
	}{
		{"paper, no thin", recommend.Options{}, []string{"p.background +1", "p.writeMeta +1", "p.less +1"}, [][]string{nil, nil, nil}, nil},
		{"paper, thin: annotated only", recommend.Options{Thin: thin}, []string{"p.background +1", "p.writeMeta +1", "p.less +1"},
			[][]string{nil, {"BenchmarkCommit"}, {"BenchmarkCommit"}}, nil},
		{"callable, no thin", recommend.Options{Targets: recommend.Callable}, []string{"p.background +1", "p.writeMeta +1", "p.less +1"}, [][]string{nil, nil, nil}, nil},
		{"callable, thin: withheld", recommend.Options{Targets: recommend.Callable, Thin: thin}, []string{"p.background +1"}, [][]string{nil},
			[]string{"p.less", "p.writeMeta"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := recommend.Additional(cov, covered, tt.opts)
			assert.Equal(t, tt.want, names(r))
			var unseen [][]string
			for _, rec := range r.Recommendations {
				unseen = append(unseen, rec.Unseen)
			}
			assert.Equal(t, tt.unseen, unseen)
			assert.Equal(t, tt.withheld, nodeNames(g, r.Withheld))
			// Withheld nodes are not counted as covered.
			if len(r.Recommendations) > 0 {
				last := r.Recommendations[len(r.Recommendations)-1]
				assert.Equal(t, g.ProjectLen()-len(tt.withheld), last.CumulativeProject.Covered)
			}
		})
	}
}

// negligibleGraph is a hand-built application: a hot uncovered function,
// small ones of each kind, and a function to tell the profile's size bound
// from a closure inside it. Total time 10 s, so 0.2% is 0.02 s.
func negligibleGraph() (*coverage.Result, bitset.Set) {
	nodes := []callgraph.Node{
		{Name: "p.(*T).Key", Project: true, Package: "p", File: "/p/t.go", Line: 10, Cum: 0.01},               // 0: getter, 3 lines by the profile (next: Less at 13)
		{Name: "p.(*T).Less", Project: true, Package: "p", File: "/p/t.go", Line: 13, Cum: 0.01},              // 1: comparator, 5 lines (next: big at 18)
		{Name: "p.Covered", Project: true, Package: "p", File: "/p/c.go", Line: 1, Cum: 5},                    // 2: covered caller
		{Name: "p.Hot", Project: true, Package: "p", File: "/p/h.go", Line: 1, Cum: 3, Flat: 3},               // 3: hot, long
		{Name: "p.big", Project: true, Package: "p", File: "/p/t.go", Line: 18, Cum: 0.01},                    // 4: long (next: big.func1 inside, then tail at 60)
		{Name: "p.big.func1", Project: true, Package: "p", File: "/p/t.go", Line: 20, Cum: 0.005},             // 5
		{Name: "p.inl", Project: true, Package: "p", File: "/p/i.go", Line: 1, Cum: 0.01, Inlined: true},      // 6: inlined into Covered
		{Name: "p.inlWarm", Project: true, Package: "p", File: "/p/i.go", Line: 50, Cum: 0.5, Inlined: true},  // 7: inlined but 5% of the time
		{Name: "p.inlOpen", Project: true, Package: "p", File: "/p/i.go", Line: 90, Cum: 0.01, Inlined: true}, // 8: inlined into Hot, uncovered
		{Name: "p.tail", Project: true, Package: "p", File: "/p/t.go", Line: 60, Cum: 0.01},                   // 9: no next function: size unknown
		{Name: "x.root", Package: "x", Cum: 10},                                                               // 10
	}
	out := [][]int32{10: {0, 1, 2, 3, 4, 9}, 2: {6, 7}, 3: {8}, 4: {5}}
	g := &callgraph.Graph{Nodes: nodes, Out: make([][]int32, len(nodes)), In: make([][]int32, len(nodes)), Total: 10}
	for from, tos := range out {
		for _, to := range tos {
			g.Out[from] = append(g.Out[from], to)
			g.In[to] = append(g.In[to], int32(from))
		}
	}
	covered := bitset.New(g.Len())
	covered.Add(2)
	covered.Add(10)
	return coverage.Compute(g, nil), covered
}

func TestNegligible(t *testing.T) {
	cov, covered := negligibleGraph()
	want := map[string]*recommend.Negligible{
		"p.(*T).Key":  {Share: 0.001, Lines: 3, LinesFrom: recommend.LinesProfile},
		"p.(*T).Less": {Share: 0.001, Lines: 5, LinesFrom: recommend.LinesProfile},
		"p.Hot":       nil,
		"p.big":       nil, // 42 lines: big.func1 is inside it
		"p.big.func1": nil, // the paper's targets: its bound is tail's line, 40 lines
		"p.inl":       {Share: 0.001, Inlined: true, Lines: 49, LinesFrom: recommend.LinesProfile},
		"p.inlWarm":   nil,
		"p.inlOpen":   nil, // its caller Hot is not covered
		"p.tail":      nil,
	}
	for _, targets := range []recommend.Targets{recommend.AnyFunction, recommend.Callable} {
		r := recommend.Additional(cov, covered, recommend.Options{Targets: targets, KeepNegligible: true})
		for _, rec := range r.Recommendations {
			w, ok := want[rec.Function]
			require.True(t, ok, rec.Function)
			if w == nil {
				assert.Nil(t, rec.Negligible, "%v %s", targets, rec.Function)
				continue
			}
			require.NotNil(t, rec.Negligible, "%v %s", targets, rec.Function)
			assert.InDelta(t, w.Share, rec.Negligible.Share, 1e-12)
			w.Share = rec.Negligible.Share
			assert.Equal(t, *w, *rec.Negligible, "%v %s", targets, rec.Function)
		}
	}

	// Source sizes replace the profile's bound: tail is 4 lines long.
	lines := make([]int, cov.App.Len())
	lines[9] = 4
	lines[1] = 12
	r := recommend.Additional(cov, covered, recommend.Options{Targets: recommend.Callable, KeepNegligible: true, Lines: lines})
	for _, rec := range r.Recommendations {
		switch rec.Function {
		case "p.tail":
			require.NotNil(t, rec.Negligible)
			assert.Equal(t, 4, rec.Negligible.Lines)
			assert.Equal(t, recommend.LinesSource, rec.Negligible.LinesFrom)
		case "p.(*T).Less":
			assert.Nil(t, rec.Negligible, "12 lines in the source")
		}
	}
}

// Ranking: callable targets put negligible candidates last; KeepNegligible
// and the paper's targets keep Algorithm 3's order and only mark them.
func TestNegligibleLast(t *testing.T) {
	cov, covered := negligibleGraph()
	tests := []struct {
		name string
		opts recommend.Options
		want []string
		last bool
	}{
		// Equal gains: closer to a root first (inl and inlWarm lie
		// beneath Covered), then by name.
		{"paper", recommend.Options{},
			[]string{"p.Hot +2", "p.big +2", "p.(*T).Key +1", "p.(*T).Less +1", "p.tail +1", "p.inl +1", "p.inlWarm +1"}, false},
		{"callable", recommend.Options{Targets: recommend.Callable},
			[]string{"p.Hot +2", "p.big +2", "p.tail +1", "p.inlWarm +1", "p.(*T).Key +1", "p.(*T).Less +1", "p.inl +1"}, true},
		{"callable, keep", recommend.Options{Targets: recommend.Callable, KeepNegligible: true},
			[]string{"p.Hot +2", "p.big +2", "p.(*T).Key +1", "p.(*T).Less +1", "p.tail +1", "p.inl +1", "p.inlWarm +1"}, false},
		{"callable, the first four", recommend.Options{Targets: recommend.Callable, N: 4},
			[]string{"p.Hot +2", "p.big +2", "p.tail +1", "p.inlWarm +1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := recommend.Additional(cov, covered, tt.opts)
			assert.Equal(t, tt.want, names(r))
			assert.Equal(t, tt.last, r.NegligibleLast)
		})
	}
}
