package measure

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// vgdbFile matches the FIFOs and the shared memory file Valgrind's
// gdbserver makes for a process (…-PID-by-USER-on-HOST), in /tmp or in
// $TMPDIR, as its version chooses.
var vgdbFile = regexp.MustCompile(`^vgdb-pipe-.*-(\d+)-by-`)

// vgdbFiles returns the paths of the vgdb files in dirs.
func vgdbFiles(dirs ...string) []string {
	var out []string
	for _, d := range dirs {
		names, _ := os.ReadDir(d)
		for _, n := range names {
			if vgdbFile.MatchString(n.Name()) {
				out = append(out, filepath.Join(d, n.Name()))
			}
		}
	}
	return out
}

// TestKilledLeavesNothing: a count killed halfway (its context canceled,
// as an interrupted mbopt does) leaves nothing behind: no Valgrind vgdb
// FIFO (valgrind runs with --vgdb=no) and no directory of its own in
// $TMPDIR (issue 31: vgdb-pipe-* FIFOs stayed behind). Other processes'
// vgdb files may come and go meanwhile: only new ones whose process is
// gone count.
func TestKilledLeavesNothing(t *testing.T) {
	needValgrind(t)
	tmp := t.TempDir()
	o := fixture(t, "BenchmarkHash")
	o.N1, o.N2 = 200, 200000
	t.Setenv("TMPDIR", tmp)
	before := vgdbFiles("/tmp", tmp)
	for _, tool := range []Tool{Cachegrind, Callgrind} {
		o.Tool = tool
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { _, err := CountInstructions(ctx, o); done <- err }()
		// Kill it once valgrind has started.
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if names, _ := os.ReadDir(tmp); len(names) > 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond)
		cancel()
		<-done
		names, _ := os.ReadDir(tmp)
		var left []string
		for _, n := range names {
			left = append(left, n.Name())
		}
		assert.Empty(t, left, "%s: left in $TMPDIR", tool)
	}
	var stale []string
	for _, f := range vgdbFiles("/tmp", tmp) {
		pid, _ := strconv.Atoi(vgdbFile.FindStringSubmatch(filepath.Base(f))[1])
		if !slices.Contains(before, f) && syscall.Kill(pid, 0) == syscall.ESRCH {
			stale = append(stale, f)
			os.Remove(f)
		}
	}
	assert.Empty(t, stale, "vgdb files of killed processes")
}
