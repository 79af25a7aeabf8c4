package tmpdir

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/internal/interrupt"
)

// TestMake: a directory is removed by its remove function, by
// interrupt.Cleanup when a signal forces the exit, and, left by a process
// that is gone, by the next Make of its prefix; a live process's
// directory and other names stay.
func TestMake(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process check")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	const prefix = "mbopt-test-"

	dir, remove, err := Make(prefix)
	require.NoError(t, err)
	assert.DirExists(t, dir)
	assert.Equal(t, tmp, filepath.Dir(dir))
	remove()
	remove()
	assert.NoDirExists(t, dir, "removed")

	dir, remove, err = Make(prefix)
	require.NoError(t, err)
	defer remove()
	interrupt.Cleanup()
	assert.NoDirExists(t, dir, "removed by the forced exit's cleanup")

	// A process that is gone, one that lives (this test's parent), and
	// names Make does not give.
	gone := exec.Command("true")
	require.NoError(t, gone.Run())
	stale := filepath.Join(tmp, fmt.Sprintf("%s%d-123", prefix, gone.Process.Pid))
	live := filepath.Join(tmp, fmt.Sprintf("%s%d-456", prefix, os.Getppid()))
	other := filepath.Join(tmp, "mbopt-other-1-789")
	odd := filepath.Join(tmp, prefix+"notapid")
	for _, d := range []string{stale, live, other, odd} {
		require.NoError(t, os.Mkdir(d, 0o755))
	}
	dir, remove, err = Make(prefix)
	require.NoError(t, err)
	defer remove()
	assert.NoDirExists(t, stale, "a killed process's directory is swept")
	for _, d := range []string{live, other, odd, dir} {
		assert.DirExists(t, d)
	}
}
