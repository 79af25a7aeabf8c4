package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunExample runs the whole pipeline on the bundled example module:
// its application workload, every benchmark, the analysis.
func TestRunExample(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles the example module (about a minute); run without -short")
	}
	out := filepath.Join(t.TempDir(), "profiles")
	t.Setenv("CI", "true")
	code, stdout, stderr := run(t, "run", "../../testdata/example",
		"--app-cmd", "go run ./cmd/appbench -duration 2s -cpuprofile {profile}", "--app-runs", "2",
		"--benchtime", "100ms", "--out", out, "--format", "json", "--recommend", "3")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "running the workload, run 2 of 2")
	assert.Regexp(t, `mbopt: workload: 2 runs: \d+ functions seen, \d+ in every run, \d+ in only some \(project: \d+ seen, \d+ in every run, \d+ in only some\)\n`, stderr)
	assert.Contains(t, stderr, "example.com/tinytsdb/storage.BenchmarkAddRows", "plain per-benchmark lines under CI")

	var doc struct {
		Modules    []string
		Coverage   struct{ Project struct{ Covered, Total int } }
		Benchmarks []struct {
			ID string
		}
		MinimalSuite []struct{ ID string } `json:"minimal_suite"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	assert.Equal(t, []string{"example.com/tinytsdb"}, doc.Modules, "module from the manifest")
	assert.GreaterOrEqual(t, len(doc.Benchmarks), 20, "every sub-benchmark is a benchmark")
	for _, b := range doc.Benchmarks {
		assert.True(t, strings.HasPrefix(b.ID, "example.com/tinytsdb/"), b.ID)
	}
	assert.NotEmpty(t, doc.MinimalSuite)
	assert.Greater(t, doc.Coverage.Project.Covered, doc.Coverage.Project.Total/2)
}

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no application source", []string{"run", "../../testdata/example"}, "no application profile"},
		{"not a directory", []string{"run", filepath.Join(dir, "nope"), "--app-pgo"}, "not a directory"},
		{"micro given", []string{"run", "../../testdata/example", "--app", "x.pprof", "--micro", "y"}, "run profiles the benchmarks itself"},
		{"no default.pgo", []string{"run", "../../testdata/example", "--app-pgo", "--out", dir}, "no default.pgo"},
		{"workload fails", []string{"run", "../../testdata/example", "--app-cmd", "exit 4 # {profile}", "--out", dir}, "exit status 4"},
		{"workload without placeholder", []string{"run", "../../testdata/example", "--app-cmd", "true", "--out", dir}, "must contain {profile}"},
		{"runs without a workload", []string{"run", "../../testdata/example", "--app-pgo", "--app-runs", "2", "--out", dir}, "--app-runs repeats the workload of --app-cmd, which is not set"},
		{"zero runs", []string{"run", "../../testdata/example", "--app-cmd", "true", "--app-runs", "0"}, "--app-runs must be positive, not 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tt.args...)
			assert.Equal(t, 2, code, stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.want)
		})
	}
}
