package analysis

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
)

func TestResolveExclude(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		mods     []string
		want     []string
	}{
		{"relative", []string{"./cmd/..."}, []string{"example.com/m"}, []string{"example.com/m/cmd/..."}},
		{"module root", []string{".", "./"}, []string{"example.com/m/"}, []string{"example.com/m", "example.com/m"}},
		{"import path kept", []string{"example.com/m/internal/bench"}, []string{"example.com/m"}, []string{"example.com/m/internal/bench"}},
		{"relative to every module", []string{"./cmd/..."}, []string{"example.com/a", "example.com/b"}, []string{"example.com/a/cmd/...", "example.com/b/cmd/..."}},
		{"cleaned", []string{"./cmd//x/../y/..."}, []string{"example.com/m"}, []string{"example.com/m/cmd/y/..."}},
	}
	for _, tt := range tests {
		got, err := resolveExclude(tt.patterns, tt.mods)
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	for _, bad := range []string{"../other/...", "..", "", "/abs/path"} {
		_, err := resolveExclude([]string{"./ok", bad}, []string{"example.com/m"})
		var fe *mbopt.Error
		require.True(t, errors.As(err, &fe), "resolveExclude(%q) = %v, want an mbopt.Error", bad, err)
		assert.Equal(t, []mbopt.Field{"Exclude"}, fe.Fields())
		assert.Contains(t, err.Error(), "Config.Exclude[1]", bad)
		assert.ErrorIs(t, err, mbopt.ErrInput)
	}
}

func TestUnmatchedExcludes(t *testing.T) {
	app := &callgraph.Graph{Nodes: []callgraph.Node{
		{Name: "example.com/m/cmd/load.Run", Package: "example.com/m/cmd/load"},
		{Name: "example.com/m/store.Put", Package: "example.com/m/store", Project: true},
		{Name: "net/http.Serve", Package: "net/http"},
	}}
	mods := []string{"example.com/m"}
	given := []string{"./cmd/...", "./cnd/...", "net/..."}
	resolved, err := resolveExclude(given, mods)
	require.NoError(t, err)
	ws := unmatchedExcludes(given, resolved, mods, app)
	require.Len(t, ws, 2, "the typo and the pattern outside the module")
	var w *ExcludeUnmatchedWarning
	require.True(t, errors.As(ws[0], &w))
	assert.Equal(t, "./cnd/...", w.Pattern)
	assert.Equal(t, "Config.Exclude ./cnd/... matches no project function of the application (example.com/m/cnd/...); check the pattern against the package paths in the profile", ws[0].Error())
	assert.Equal(t, "Config.Exclude net/... matches no project function of the application; check the pattern against the package paths in the profile", ws[1].Error())
}
