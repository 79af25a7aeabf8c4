package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/manifest"
)

// TestBenchmarkOutputNeverReachesTheTerminal profiles, with the mbopt
// binary, a module whose benchmarks print to stdout and stderr (one also
// fails): none of it shows on mbopt's stdout or stderr, where the progress
// goes (only a failure's reason is summarized); the failing benchmark's
// output is in its log.
func TestBenchmarkOutputNeverReachesTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	mbopt := buildMbopt(t)
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/noisy\n\ngo 1.21\n",
		"noisy.go": `package noisy

func Work(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i
	}
	return s
}
`,
		"noisy_test.go": `package noisy

import (
	"fmt"
	"os"
	"testing"
)

func BenchmarkNoisy(b *testing.B) {
	fmt.Println("noisy-marker on stdout")
	fmt.Fprintln(os.Stderr, "noisy-marker on stderr")
	for i := 0; i < b.N; i++ {
		Work(1000)
	}
}

func BenchmarkNoisyFails(b *testing.B) {
	fmt.Println("noisy-marker before failing")
	b.Fatal("the failure reason")
}
`,
	}
	for name, data := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	out := filepath.Join(dir, "out")
	cmd := exec.Command(mbopt, "profile", "-C", dir, "--out", out, "--benchtime", "1x")
	cmd.Env = append(os.Environ(), "CI=true")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "stderr: %s", &stderr)
	assert.NotContains(t, stdout.String(), "noisy-marker")
	assert.NotContains(t, stderr.String(), "noisy-marker")
	assert.Contains(t, stderr.String(), "example.com/noisy.BenchmarkNoisy", "the progress lines")
	assert.Contains(t, stderr.String(), "the failure reason", "a failure's reason is summarized")

	m, err := manifest.Load(out)
	require.NoError(t, err)
	e, ok := m.Lookup("example.com/noisy.BenchmarkNoisyFails")
	require.True(t, ok)
	require.Equal(t, manifest.StatusFailed, e.Status)
	log, err := os.ReadFile(filepath.Join(out, e.Log))
	require.NoError(t, err)
	assert.Contains(t, string(log), "noisy-marker before failing")
}
