package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proctab"
)

// TestProfileKilled kills `mbopt profile` while a benchmark hangs, with
// SIGKILL and with SIGHUP: no process it started may keep running, a
// second mbopt on the same directory meanwhile exits 2 naming the holder
// of the lock, and a rerun resumes: it reuses what was complete and leaves
// no test binary or temporary file behind.
func TestProfileKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mbopt and runs testdata/faults")
	}
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc to read the process table")
	}
	t.Setenv("CI", "true")
	mbopt := buildMbopt(t)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "prof")
			tag := proctab.Tag(t)
			args := []string{"profile", "-C", "../../testdata/faults", "./hangs", "--out", out, "--benchtime", "1x", "--timeout", "5m", "-j", "2"}
			cmd := exec.Command(mbopt, args...)
			cmd.Env = append(os.Environ(), tag)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			defer cmd.Process.Kill()

			// Wait for BenchmarkQuick to be recorded and BenchmarkHang to hang.
			require.Eventually(t, func() bool {
				m, err := manifest.Load(out)
				if err != nil {
					return false
				}
				e, ok := m.Lookup("example.com/faults/hangs.BenchmarkQuick")
				return ok && e.Status == manifest.StatusOK && len(proctab.Tagged(tag, "BenchmarkHang", 0)) > 0
			}, 2*time.Minute, 100*time.Millisecond, "mbopt never reached the hanging benchmark: %s", &stderr)

			code, _, errText := run(t, args...)
			assert.Equal(t, cli.BadInput, code, "a second mbopt on the same --out")
			assert.Contains(t, errText, filepath.Join(out, collect.LockFile))
			assert.Contains(t, errText, fmt.Sprintf("pid %d ", cmd.Process.Pid))

			require.NoError(t, cmd.Process.Signal(sig))
			err := cmd.Wait()
			if sig == syscall.SIGHUP {
				assert.Equal(t, 129, cmd.ProcessState.ExitCode(), "SIGHUP is an interruption (128+1): %v", err)
				assert.Contains(t, stderr.String(), "interrupted; run the same command again")
			}
			assert.Empty(t, proctab.Tagged(tag, "", 5*time.Second), "processes left running after %v of mbopt", sig)

			code, _, errText = run(t, "profile", "-C", "../../testdata/faults", "./hangs", "--bench", "Quick", "--out", out, "--benchtime", "1x")
			require.Equal(t, cli.OK, code, errText)
			assert.Contains(t, errText, "1 reused from an earlier run")
			assert.NoDirExists(t, filepath.Join(out, ".bin"))
			entries, _ := os.ReadDir(out)
			for _, e := range entries {
				assert.False(t, atomicfile.IsTemp(e.Name()) || strings.HasSuffix(e.Name(), ".tmp"), "temporary file %s left", e.Name())
			}
		})
	}
}

// TestProfileBadInput: inputs the collection cannot use are exit 2 with
// a sentence naming the flag, and create no output directory.
func TestProfileBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list on testdata/faults")
	}
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	out := filepath.Join(tmp, "out")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-C", "../../testdata/faults", "./nosuch/...", "--out", out}, "mbopt: PATTERN: no package matches ./nosuch/... in "},
		{[]string{"-C", t.TempDir(), "--out", out}, "mbopt: -C: " /* ... is not inside a Go module */},
		{[]string{"-C", "../../testdata/faults", "--out", file}, "mbopt: --out: output directory " + file + " is not a directory"},
		{[]string{"-C", "../../testdata/faults", "--out", filepath.Join(file, "x")}, "mbopt: --out: "},
		{[]string{"-C", "../../testdata/faults", "--skip", "(", "--out", out}, "mbopt: --skip: "},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := run(t, append([]string{"profile"}, tt.args...)...)
			assert.Equal(t, cli.BadInput, code, stderr)
			assert.True(t, strings.HasPrefix(stderr, tt.want), "stderr %q, want prefix %q", stderr, tt.want)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.NoDirExists(t, out)
		})
	}
}
