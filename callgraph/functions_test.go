package callgraph_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
)

func TestFromFunctions(t *testing.T) {
	g, err := callgraph.FromFunctions([]callgraph.Function{
		{Name: "example.com/m/store.Map[go.shape.int]", File: "example.com/m/store/a.go", Line: 3},
		{Name: "example.com/m/cmd/load.main", File: "example.com/m/cmd/load/main.go", Line: 9},
		{Name: "example.com/m/store.(*DB).Get", File: "example.com/m/store/a.go", Line: 7},
		{Name: "example.com/m/store.Map[...]", File: "other.go", Line: 1}, // the same function again
		{Name: "strings.Index"},
	}, callgraph.Options{Modules: []string{"example.com/m"}, Exclude: []string{"example.com/m/cmd/..."}})
	require.NoError(t, err)
	assert.Equal(t, []callgraph.Node{
		{Name: "example.com/m/cmd/load.main", Package: "example.com/m/cmd/load", File: "example.com/m/cmd/load/main.go", Line: 9},
		{Name: "example.com/m/store.(*DB).Get", Package: "example.com/m/store", Project: true, File: "example.com/m/store/a.go", Line: 7},
		{Name: "example.com/m/store.Map[...]", Package: "example.com/m/store", Project: true, File: "example.com/m/store/a.go", Line: 3},
		{Name: "strings.Index", Package: "strings"},
	}, g.Nodes)
	assert.Equal(t, 4, len(g.Out))
	assert.Zero(t, g.Total)
	assert.Equal(t, "functions", g.Unit)
	id, ok := g.Lookup("example.com/m/store.Map[...]")
	assert.True(t, ok)
	assert.Equal(t, 2, id)

	_, err = callgraph.FromFunctions(nil, callgraph.Options{Exclude: []string{"./cmd/..."}})
	assert.ErrorIs(t, err, callgraph.ErrPattern)
}
