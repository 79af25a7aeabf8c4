package staticcg_test

import (
	"fmt"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/staticcg"
)

// Apply adds to an application graph the static calls between functions
// the application ran. Here the profile sampled only handle → parse, but
// the code also calls store from handle through a method wrapper, and
// handle → log → store through log, which never ran: only the first is a
// static edge of the application.
func ExampleApply() {
	app := &callgraph.Graph{
		Nodes: []callgraph.Node{
			{Name: "ex.com/db.handle", Package: "ex.com/db", Project: true},
			{Name: "ex.com/db.parse", Package: "ex.com/db", Project: true},
			{Name: "ex.com/db.store", Package: "ex.com/db", Project: true},
		},
		Out: [][]int32{{1}, nil, nil},
		In:  [][]int32{nil, {0}, nil},
	}
	// As staticcg.Build would return it for the application's source.
	sg := &staticcg.Graph{
		Funcs: []staticcg.Func{
			{Name: "ex.com/db.(*Store).Put", Transparent: true},
			{Name: "ex.com/db.handle"},
			{Name: "ex.com/db.log"},
			{Name: "ex.com/db.parse"},
			{Name: "ex.com/db.store"},
		},
		Out: [][]int32{{4}, {0, 2, 3}, {4}, nil, nil},
	}
	g, st := staticcg.Apply(app, sg, staticcg.Both)
	for v, ws := range g.Out {
		for _, w := range ws {
			fmt.Printf("%s → %s\n", g.Nodes[v].Name, g.Nodes[w].Name)
		}
	}
	fmt.Printf("%d sampled, %d static (%d of them sampled too), %d in all\n", st.Sampled, st.Static, st.Common, st.Result)
	// Output:
	// ex.com/db.handle → ex.com/db.parse
	// ex.com/db.handle → ex.com/db.store
	// 1 sampled, 2 static (1 of them sampled too), 2 in all
}
