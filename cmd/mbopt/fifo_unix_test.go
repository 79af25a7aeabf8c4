//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A named pipe as --app is a one-line input error (exit 2), and one in the
// --micro directory a skip; neither blocks (a goroutine guards against a
// hang, this is no timing assertion).
func TestFIFOInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "app.pprof")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	type result struct {
		code           int
		stdout, stderr string
	}
	guarded := func(args ...string) result {
		done := make(chan result, 1)
		go func() {
			code, stdout, stderr := run(t, args...)
			done <- result{code, stdout, stderr}
		}()
		select {
		case r := <-done:
			return r
		case <-time.After(30 * time.Second):
			t.Fatalf("mbopt %v blocked: still running after 30s", args)
			return result{}
		}
	}

	r := guarded("analyze", "--app", fifo, "--micro", exampleDir+"/micro", "--module", "example.com/tinytsdb")
	assert.Equal(t, 2, r.code)
	assert.Empty(t, r.stdout)
	assert.Equal(t, "mbopt: application profile "+fifo+": is a named pipe (FIFO), not a regular file (only regular files are read as profiles; save the profile to a file and give that)\n", r.stderr)

	r = guarded("analyze", "--app", exampleDir+"/app.pprof", "--micro", exampleDir+"/micro", "--micro", fifo, "--module", "example.com/tinytsdb", "--recommend", "0")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "mbopt: warning: skipping "+fifo+": is a named pipe (FIFO), not a regular file")
}
