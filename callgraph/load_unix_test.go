//go:build unix

package callgraph_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
)

// returns runs f in a goroutine and fails t if it has not returned after
// 10 seconds: a guard against hanging forever, not a timing assertion.
func returns(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("blocked: still running after 10s")
	}
}

// A named pipe without a writer would block open(2) forever; ReadProfile
// and Load refuse it instead, saying what it is.
func TestReadProfileRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "app.pprof")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link.pprof")
	require.NoError(t, os.Symlink(fifo, link))

	for _, path := range []string{fifo, link} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var err error
			returns(t, func() { _, err = callgraph.ReadProfile(path) })
			assert.ErrorIs(t, err, callgraph.ErrNotRegular)
			assert.EqualError(t, err, path+": is a named pipe (FIFO), not a regular file (only regular files are read as profiles; save the profile to a file and give that)")

			returns(t, func() { _, err = callgraph.Load([]string{exampleApp, path}, callgraph.Options{}) })
			var fe *callgraph.FileError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, path, fe.Path)
			assert.ErrorIs(t, err, callgraph.ErrNotRegular)
		})
	}
}

func TestReadProfileRefusesDevice(t *testing.T) {
	var err error
	returns(t, func() { _, err = callgraph.ReadProfile(os.DevNull) })
	assert.ErrorIs(t, err, callgraph.ErrNotRegular)
	assert.ErrorContains(t, err, "is a character device, not a regular file")
}
