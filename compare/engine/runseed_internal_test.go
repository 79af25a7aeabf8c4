package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOverlayFlags: the build flags get one -overlay holding mbopt's
// replacements and those of an -overlay the user gave (either spelling,
// relative to the module), the user's flag dropped; a user overlay that
// replaces a file mbopt replaces, or one that cannot be read, is an error
// naming it; no replacements leave the flags alone.
func TestOverlayFlags(t *testing.T) {
	mod := t.TempDir()
	user := filepath.Join(mod, "user.json")
	require.NoError(t, os.WriteFile(user, []byte(`{"Replace":{"/m/a.go":"/x/a.go"}}`), 0o644))
	clash := filepath.Join(mod, "clash.json")
	require.NoError(t, os.WriteFile(clash, []byte(`{"Replace":{"/goroot/src/runtime/rand.go":"/x/rand.go"}}`), 0o644))
	ours := map[string]string{"/goroot/src/runtime/rand.go": "/ws/rand.go"}
	tests := []struct {
		name    string
		flags   []string
		replace map[string]string
		want    map[string]string // the overlay's replacements; nil: flags unchanged
		kept    []string          // the flags before -overlay
		err     string
	}{
		{"nothing to replace", []string{"-tags", "x", "-overlay", user}, nil, nil, []string{"-tags", "x", "-overlay", user}, ""},
		{"ours only", []string{"-tags", "x"}, ours, ours, []string{"-tags", "x"}, ""},
		{"merged", []string{"-overlay", "user.json", "-race"}, ours, map[string]string{"/m/a.go": "/x/a.go", "/goroot/src/runtime/rand.go": "/ws/rand.go"}, []string{"-race"}, ""},
		{"merged, = form", []string{"--overlay=" + user}, ours, map[string]string{"/m/a.go": "/x/a.go", "/goroot/src/runtime/rand.go": "/ws/rand.go"}, []string{}, ""},
		{"clash", []string{"-overlay", clash}, ours, nil, nil, "replaces /goroot/src/runtime/rand.go"},
		{"unreadable", []string{"-overlay", "missing.json"}, ours, nil, nil, "missing.json"},
		{"no file", []string{"-overlay"}, ours, nil, nil, "-overlay needs a file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &runner{plan: Plan{BuildFlags: tt.flags}, vers: [2]*version{{dir: mod}, {dir: mod}}}
			flags, err := r.overlayFlags(&workspace{dir: t.TempDir()}, Head, tt.replace)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			if tt.want == nil {
				assert.Equal(t, tt.flags, flags)
				return
			}
			require.GreaterOrEqual(t, len(flags), 2)
			n := len(flags)
			assert.Equal(t, tt.kept, flags[:n-2:n-2])
			assert.Equal(t, "-overlay", flags[n-2])
			data, err := os.ReadFile(flags[n-1])
			require.NoError(t, err)
			var got struct{ Replace map[string]string }
			require.NoError(t, json.Unmarshal(data, &got))
			assert.Equal(t, tt.want, got.Replace)
		})
	}
}
