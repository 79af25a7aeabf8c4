package analysis

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/bitset"
)

func TestCmdDir(t *testing.T) {
	modules := []string{"example.com/m", "example.com/other/"}
	tests := []struct {
		pkg, dir string
		ok       bool
	}{
		{"example.com/m/storage", "", false},
		{"example.com/m/cmd", "cmd", true},
		{"example.com/m/cmd/load", "cmd", true},
		{"example.com/m/cmd/load/app", "cmd", true},
		{"example.com/m/tools/cmd/gen", "tools/cmd", true},
		{"example.com/other/cmd/bench", "cmd", true},
		{"example.com/m/cmdline", "", false},
		{"example.com/thirdparty/cmd/x", "", false},
		{"main", "", false},
	}
	for _, tt := range tests {
		dir, ok := cmdDir(tt.pkg, modules)
		if dir != tt.dir || ok != tt.ok {
			t.Errorf("cmdDir(%q) = %q, %v; want %q, %v", tt.pkg, dir, ok, tt.dir, tt.ok)
		}
	}
}

func TestCmdTargets(t *testing.T) {
	g := &callgraph.Graph{Nodes: []callgraph.Node{
		{Name: "example.com/m/cmd/load.Command", Package: "example.com/m/cmd/load", Project: true},
		{Name: "example.com/m/cmd/load.run", Package: "example.com/m/cmd/load", Project: true},
		{Name: "example.com/m/cmd/tool.main", Package: "example.com/m/cmd/tool", Project: true},
		{Name: "example.com/m/storage.Get", Package: "example.com/m/storage", Project: true},
	}}
	covered := bitset.New(len(g.Nodes))
	covered.Add(2) // cmd/tool is covered: not named
	notTarget, note := cmdTargets(g, covered, []string{"example.com/m"})
	assert.True(t, notTarget("example.com/m/cmd/load"))
	assert.False(t, notTarget("example.com/m/storage"))
	var n *CmdTargetsNote
	require.ErrorAs(t, note, &n)
	assert.True(t, IsNote(note))
	assert.Equal(t, []string{"example.com/m/cmd/load"}, n.Packages)
	assert.Equal(t, "./cmd/...", n.Pattern)
	assert.Contains(t, n.Error(), "Config.Exclude ./cmd/... also leaves them out")

	covered.Add(0)
	covered.Add(1)
	_, note = cmdTargets(g, covered, []string{"example.com/m"})
	assert.NoError(t, note, "no note when nothing under cmd/ is left to recommend")
}
