package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteFileIn: a file inside the root is written whole, a symbolic
// link at the name is replaced rather than followed out of the root, a
// directory is refused, and no temporary file is left.
func TestWriteFileIn(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(outside, "target"), filepath.Join(dir, "link")))
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	for _, tc := range []struct {
		name, want string
	}{
		{"new", ""},
		{filepath.Join("sub", "page.html"), ""},
		{"link", ""},
		{"sub", "is a directory"},
		{filepath.Join("..", "escape"), "escapes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteFileIn(root, tc.name, []byte("data"))
			if tc.want != "" {
				assert.ErrorContains(t, err, tc.want)
				return
			}
			require.NoError(t, err)
			b, err := os.ReadFile(filepath.Join(dir, tc.name))
			require.NoError(t, err)
			assert.Equal(t, "data", string(b))
		})
	}
	fi, err := os.Lstat(filepath.Join(dir, "link"))
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular(), "the link is replaced")
	assert.NoFileExists(t, filepath.Join(outside, "target"), "nothing written outside")
	for _, d := range []string{dir, filepath.Join(dir, "sub")} {
		es, err := os.ReadDir(d)
		require.NoError(t, err)
		for _, e := range es {
			assert.False(t, IsTemp(e.Name()), "temporary file %s left", e.Name())
		}
	}
}
