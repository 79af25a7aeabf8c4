package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReportCommandWritesEveryFile(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := run(t, "report",
		"--app", "mixed="+exampleDir+"/app.pprof", "--app", "query="+exampleDir+"/app-query.pprof:2",
		"--micro", exampleDir+"/micro", "--module", "example.com/tinytsdb", "--objective", "impact", "--out", out)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout)
	for _, name := range []string{"report.md", "report.html", "report.json", "suite-coverage.png", "suite-coverage.svg",
		"recommend-coverage.png", "suite-impact.png", "suite-impact.svg"} {
		st, err := os.Stat(filepath.Join(out, name))
		require.NoError(t, err, name)
		assert.Positive(t, st.Size(), name)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(md), "Objective **impact** (weighted by scenario)")
	assert.Contains(t, string(md), "| query | 2 |")
	assert.Contains(t, string(md), "**Optimality.**")
}

func TestReportCommandErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no out", []string{"report", "--app", "a.pprof", "--micro", "m"}, "--out is required"},
		{"mixed apps", []string{"report", "--app", "a=x.pprof", "--app", "y.pprof", "--micro", "m", "--out", "o"}, "give every application profile a scenario name (NAME=FILE) or none; 1 of 2 have none"},
		{"bad weight", []string{"report", "--app", "a=x.pprof:-1", "--micro", "m", "--out", "o"}, "the weight must be a positive number, not -1"},
		{"bad objective", []string{"analyze", "--app", "a.pprof", "--micro", "m", "--objective", "time"}, `--objective: invalid objective "time": valid values are {nodes|impact}`},
		{"budget without costs", []string{"analyze", "--app", exampleDir + "/app.pprof", "--micro", exampleDir + "/micro", "--module", "example.com/tinytsdb", "--budget", "10s"}, "have no cost, which a budget needs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, tt.args...)
			assert.Equal(t, exitBadInput, code)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

func TestGitHubFormat(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	costs := filepath.Join(t.TempDir(), "costs.csv")
	require.NoError(t, os.WriteFile(costs, []byte("id,seconds\n"), 0o644))
	code, stdout, stderr := run(t, exampleArgs("--format", "github", "--budget", "30s", "--costs", costs, "--default-cost", "10s")...)
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	assert.Len(t, lines, 3, "30s of budget at 10s per benchmark: %q", stdout)
	md, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.Contains(t, string(md), "## Selected suite: 3 of 19 benchmarks")
	assert.Contains(t, string(md), "budget 30.00s: the picks cost 30.00s")
	assert.Contains(t, string(md), "<details>")
}

// With a collection manifest the github format prints runnable go test
// commands, not bare ids.
func TestGitHubFormatWithManifest(t *testing.T) {
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(t.TempDir(), "summary.md"))
	app, micro := figure62Collection(t)
	code, stdout, stderr := run(t, "analyze", "--app", app, "--micro", micro, "--format", "github")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "go test -run '^$' -bench '^BenchmarkOne$' example.com/fig/app\n"+
		"go test -run '^$' -bench '^BenchmarkTwo$/^n=1$' example.com/fig/other\n", stdout)
}
