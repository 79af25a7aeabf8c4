package analysis

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
)

func TestLongerBenchTime(t *testing.T) {
	tests := []struct {
		benchTime string
		samples   int64
		want      string
	}{
		{"", 22, "5s"},
		{"1s", 22, "5s"},
		{"1s", 99, "2s"},
		{"2s", 60, "4s"},
		{"500ms", 22, "3s"},
		{"100ms", 30, "400ms"},
		{"1.5s", 40, "5s"},
		{"100x", 22, "500x"},
		{"1x", 0, "100x"},
		{"junk", 50, "2s"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, longerBenchTime(tt.benchTime, tt.samples), "%s at %d samples", tt.benchTime, tt.samples)
	}
}

// Source sizes come from the module's go.mod directory, only for
// declarations that start where the profile says.
func TestSourceLines(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("go.mod", "module example.com/m\n")
	write("p/p.go", `package p

type T struct{ k int }

func (t *T) Key() int { return t.k }

func Less(a, b T) bool {
	return a.k < b.k
}

func Long() {
	f := func() {
		_ = 1
	}
	f()
}
`)
	write("p/p_test.go", "package p\n\nfunc helper() {}\n")
	nodes := []callgraph.Node{
		{Name: "example.com/m/p.(*T).Key", Package: "example.com/m/p", Project: true, Line: 5},
		{Name: "example.com/m/p.Less", Package: "example.com/m/p", Project: true, Line: 7},
		{Name: "example.com/m/p.Long", Package: "example.com/m/p", Project: true, Line: 99}, // stale source: no size
		{Name: "example.com/m/p.Long.func1", Package: "example.com/m/p", Project: true},     // line unknown: trusted
		{Name: "example.com/m/p.helper", Package: "example.com/m/p", Project: true},         // a test file's
		{Name: "other.org/q.F", Package: "other.org/q"},
	}
	g := &callgraph.Graph{Nodes: nodes}
	assert.Equal(t, []int{1, 3, 0, 3, 0, 0}, sourceLines(g, filepath.Join(dir, "p")))
	assert.Nil(t, sourceLines(g, t.TempDir()), "no go.mod")
}
