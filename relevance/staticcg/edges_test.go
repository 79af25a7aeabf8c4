package staticcg_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/staticcg"
)

// fixture returns a hand-built application graph and static graph:
//
//	application (sampled)   p.A → p.B; also p.C, p.E, p.F.gowrap1, runtime.x
//	static                  p.A → p.A (recursion), p.A → p.W → p.C with p.W a
//	                        wrapper, p.A → p.X → p.B with p.X real code the
//	                        application never ran, p.B → p.C, p.D → p.A,
//	                        runtime.x → p.B
func fixture() (*callgraph.Graph, *staticcg.Graph) {
	names := []string{"p.A", "p.B", "p.C", "p.E", "p.F.gowrap1", "runtime.x"}
	app := &callgraph.Graph{Out: make([][]int32, len(names)), In: make([][]int32, len(names)), Total: 1, Unit: "seconds"}
	for _, n := range names {
		pkg := callgraph.PackageOf(n)
		app.Nodes = append(app.Nodes, callgraph.Node{Name: n, Package: pkg, Project: pkg == "p"})
	}
	app.Out[0], app.In[1] = []int32{1}, []int32{0}
	sg := &staticcg.Graph{
		Funcs: []staticcg.Func{{Name: "p.A"}, {Name: "p.B"}, {Name: "p.C"}, {Name: "p.D"}, {Name: "p.W", Transparent: true}, {Name: "p.X"}, {Name: "runtime.x"}},
		// ids:  0 p.A, 1 p.B, 2 p.C, 3 p.D, 4 p.W, 5 p.X, 6 runtime.x
		Out: [][]int32{{0, 4, 5}, {2}, nil, {0}, {2}, {1}, {1}},
	}
	return app, sg
}

func edges(g *callgraph.Graph) []string {
	var out []string
	for v, ws := range g.Out {
		for _, w := range ws {
			out = append(out, g.Nodes[v].Name+"→"+g.Nodes[w].Name)
		}
	}
	return out
}

func TestApply(t *testing.T) {
	for _, tc := range []struct {
		mode   staticcg.Edges
		want   []string
		result int
	}{
		{staticcg.Sampled, []string{"p.A→p.B"}, 1},
		{staticcg.Static, []string{"p.A→p.C", "p.B→p.C", "runtime.x→p.B"}, 3},
		{staticcg.Both, []string{"p.A→p.B", "p.A→p.C", "p.B→p.C", "runtime.x→p.B"}, 4},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			app, sg := fixture()
			g, st := staticcg.Apply(app, sg, tc.mode)
			if got := edges(g); !slices.Equal(got, tc.want) {
				t.Errorf("Apply(%s) edges = %v, want %v", tc.mode, got, tc.want)
			}
			// In mirrors Out.
			for v, ws := range g.Out {
				for _, w := range ws {
					if !slices.Contains(g.In[w], int32(v)) {
						t.Errorf("Apply(%s): edge %d→%d missing from In[%d] = %v", tc.mode, v, w, w, g.In[w])
					}
				}
			}
			if &g.Nodes[0] != &app.Nodes[0] {
				t.Errorf("Apply(%s) copied the nodes; want them shared", tc.mode)
			}
			want := staticcg.Stats{Edges: tc.mode, Algorithm: staticcg.VTA, Sampled: 1, Static: 3, Common: 0, Result: tc.result,
				Matched: 4, Unmatched: []string{"p.E"}}
			if fmt.Sprint(st) != fmt.Sprint(want) {
				t.Errorf("Apply(%s) stats = %+v, want %+v", tc.mode, st, want)
			}
		})
	}
}

func TestParseEdges(t *testing.T) {
	for _, e := range []staticcg.Edges{staticcg.Sampled, staticcg.Static, staticcg.Both} {
		got, err := staticcg.ParseEdges(e.String())
		if err != nil || got != e {
			t.Errorf("ParseEdges(%q) = %v, %v; want %v", e.String(), got, err, e)
		}
	}
	if _, err := staticcg.ParseEdges("dynamic"); err == nil {
		t.Error(`ParseEdges("dynamic") succeeded; want an error listing the values`)
	}
	for _, a := range []staticcg.Algorithm{staticcg.VTA, staticcg.CHA} {
		got, err := staticcg.ParseAlgorithm(a.String())
		if err != nil || got != a {
			t.Errorf("ParseAlgorithm(%q) = %v, %v; want %v", a.String(), got, err, a)
		}
	}
	if _, err := staticcg.ParseAlgorithm("rta"); err == nil {
		t.Error(`ParseAlgorithm("rta") succeeded; want an error listing the values`)
	}
}

func TestResolveInlinedClosures(t *testing.T) {
	sg := &staticcg.Graph{Funcs: []staticcg.Func{
		{Name: "ex.com/a.F"}, {Name: "ex.com/a.F.func1"}, {Name: "ex.com/a.G"}, {Name: "ex.com/a.G.func1"},
		{Name: "ex.com/a.H"}, {Name: "ex.com/a.H.func1"}, {Name: "ex.com/a.H.func2"},
		{Name: "ex.com/b.(*T).M"}, {Name: "ex.com/b.F"}, {Name: "ex.com/b.(*T).M.func1"},
	}}
	slices.SortFunc(sg.Funcs, func(a, b staticcg.Func) int { return strings.Compare(a.Name, b.Name) })
	sg.Out = make([][]int32, len(sg.Funcs))
	for _, tc := range []struct {
		name, want string
	}{
		{"ex.com/a.F.func1", "ex.com/a.F.func1"},             // itself
		{"ex.com/a.F.G.func2", "ex.com/a.G.func1"},           // G's only closure, inlined into F (which has one)
		{"ex.com/b.F.(*T).M.func1", "ex.com/b.(*T).M.func1"}, // a method's
		{"ex.com/a.F.H.func2", ""},                           // H has two closures: which one is unknown
		{"ex.com/a.F.Z.func1", ""},                           // no such function
		{"ex.com/a.F.gowrap1", ""},
	} {
		s, ok := sg.Resolve(tc.name)
		got := ""
		if ok {
			got = sg.Funcs[s].Name
		}
		if got != tc.want {
			t.Errorf("Resolve(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
