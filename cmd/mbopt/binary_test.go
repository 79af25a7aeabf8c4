package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The mbopt binary that tests run as a real process (signals, kills,
// resource limits), built once per test run.
var mboptBinary struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

// buildMbopt returns the path of the mbopt binary built from this package,
// building it on first use.
func buildMbopt(t *testing.T) string {
	t.Helper()
	b := &mboptBinary
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "mbopt-test-bin-"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "mbopt")
		b.out, b.err = exec.Command("go", "build", "-o", b.path, ".").CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("go build: %v: %s", b.err, b.out)
	}
	return b.path
}

// TestMain removes the binary built by buildMbopt.
func TestMain(m *testing.M) {
	code := m.Run()
	if mboptBinary.dir != "" {
		os.RemoveAll(mboptBinary.dir)
	}
	os.Exit(code)
}
