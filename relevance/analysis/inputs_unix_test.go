//go:build unix

package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// run runs analysis.Run in a goroutine and fails t if it has not returned
// after 10 seconds: a guard against blocking on a FIFO, not a timing
// assertion.
func runGuarded(t *testing.T, cfg analysis.Config) (*analysis.Report, error) {
	t.Helper()
	type result struct {
		rep *analysis.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := analysis.Run(context.Background(), cfg)
		done <- result{rep, err}
	}()
	select {
	case r := <-done:
		return r.rep, r.err
	case <-time.After(10 * time.Second):
		t.Fatal("analysis.Run blocked: still running after 10s")
		return nil, nil
	}
}

// Named pipes never block an analysis: inside a --micro directory or
// given as a --micro file they are skipped without being opened, as the
// application profile or a manifest they are input errors.
func TestRunFIFOs(t *testing.T) {
	dir, app, micro := figureDir(t)
	mods := []string{proftest.Figure62Module}
	inDir := filepath.Join(micro, "fifo.pprof")
	require.NoError(t, syscall.Mkfifo(inDir, 0o644))
	link := filepath.Join(micro, "link.pprof")
	require.NoError(t, os.Symlink(inDir, link))
	alone := filepath.Join(dir, "alone.pprof")
	require.NoError(t, syscall.Mkfifo(alone, 0o644))

	rep, err := runGuarded(t, analysis.Config{App: []string{app}, Micro: []string{micro, alone}, Modules: mods})
	require.NoError(t, err)
	assert.Len(t, rep.Coverage.Sets, 2, "one.pprof and two.pprof")
	require.Len(t, rep.Skipped, 3)
	for i, want := range []string{alone, inDir, link} {
		assert.Equal(t, want, rep.Skipped[i].File)
		assert.Equal(t, "is a named pipe (FIFO), not a regular file; only regular files are read as profiles", rep.Skipped[i].Reason)
	}

	_, err = runGuarded(t, analysis.Config{App: []string{app}, Micro: []string{micro}, Modules: mods, Strict: true})
	assert.ErrorIs(t, err, mbopt.ErrInput, "--strict makes the skip an error")

	_, err = runGuarded(t, analysis.Config{App: []string{alone}, Micro: []string{micro}, Modules: mods})
	assert.ErrorIs(t, err, mbopt.ErrInput)
	assert.EqualError(t, err, "application profile "+alone+": is a named pipe (FIFO), not a regular file (only regular files are read as profiles; save the profile to a file and give that)")

	withManifest := filepath.Join(dir, "collected")
	require.NoError(t, os.Mkdir(withManifest, 0o755))
	require.NoError(t, syscall.Mkfifo(filepath.Join(withManifest, manifest.FileName), 0o644))
	_, err = runGuarded(t, analysis.Config{App: []string{app}, Micro: []string{withManifest}, Modules: mods})
	assert.ErrorIs(t, err, mbopt.ErrInput)
	assert.ErrorContains(t, err, "manifest.json: is a named pipe (FIFO), not a regular file")
}
