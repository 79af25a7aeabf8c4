package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
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
	partial := filepath.Join(t.TempDir(), "costs.csv")
	require.NoError(t, os.WriteFile(partial, []byte("id,seconds\nstorage__BenchmarkAddRows,1\n"), 0o644))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no out", []string{"report", "--app", "a.pprof", "--micro", "m"}, "--out is required"},
		{"mixed apps", []string{"report", "--app", "a=x.pprof", "--app", "y.pprof", "--micro", "m", "--out", "o"}, "give every application profile a scenario name (NAME=FILE) or none; 1 of 2 have none"},
		{"bad weight", []string{"report", "--app", "a=x.pprof:-1", "--micro", "m", "--out", "o"}, "the weight must be a positive number, not -1"},
		{"bad objective", []string{"analyze", "--app", "a.pprof", "--micro", "m", "--objective", "time"}, `--objective: invalid objective "time": valid values are {nodes|impact|cost|caught}`},
		{"negative top", []string{"analyze", "--app", exampleDir + "/app.pprof", "--micro", exampleDir + "/micro", "--top", "-1"}, "--top must be a positive count (0: no limit), not -1"},
		{"negative min-gain", []string{"suite", "--app", exampleDir + "/app.pprof", "--micro", exampleDir + "/micro", "--min-gain", "-2"}, "--min-gain must be a positive count (0: none), not -2"},
		{"budget with a partial costs file", []string{"analyze", "--app", exampleDir + "/app.pprof", "--micro", exampleDir + "/micro", "--module", "example.com/tinytsdb", "--budget", "10s", "--costs", partial}, "have no cost, which a budget needs"},
		{"cost objective with a partial costs file", []string{"analyze", "--app", exampleDir + "/app.pprof", "--micro", exampleDir + "/micro", "--module", "example.com/tinytsdb", "--objective", "cost", "--costs", partial}, "have no cost, which the cost objective needs"},
		{"cost objective with top", []string{"analyze", "--app", "a.pprof", "--micro", "m", "--objective", "cost", "--top", "2"}, "mbopt: --objective cost keeps Algorithm 2's full coverage at the smallest cost: leave --top unset"},
		{"bad impact", []string{"analyze", "--app", "a.pprof", "--micro", "m", "--impact", "self"}, `--impact: invalid impact "self": valid values are {attributed|flat}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := run(t, tt.args...)
			assert.Equal(t, cli.BadInput, code)
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

// A rerun replaces the report as a set: a --recommend 0 report keeps no old
// recommendation plot, and a directory with a user's file is refused.
func TestReportCommandReplacesTheSet(t *testing.T) {
	out := filepath.Join(t.TempDir(), "report")
	args := []string{"report", "--app", exampleDir + "/app.pprof", "--micro", exampleDir + "/micro", "--module", "example.com/tinytsdb", "--out", out}
	code, _, stderr := run(t, args...)
	require.Equal(t, 0, code, stderr)
	require.FileExists(t, filepath.Join(out, "recommend-coverage.png"))

	code, _, stderr = run(t, append(args, "--recommend", "0")...)
	require.Equal(t, 0, code, stderr)
	assert.NoFileExists(t, filepath.Join(out, "recommend-coverage.png"), "stale plot of the earlier run")
	assert.NoFileExists(t, filepath.Join(out, "recommend-coverage.svg"))
	assert.FileExists(t, filepath.Join(out, "report.md"))

	notes := filepath.Join(out, "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte("mine"), 0o644))
	code, _, stderr = run(t, args...)
	assert.Equal(t, cli.BadInput, code)
	assert.Contains(t, stderr, "mbopt: --out: "+out+" holds notes.txt, which is not a file of an mbopt report")
	assert.FileExists(t, notes, "a file mbopt did not write is never deleted")
	assert.NoFileExists(t, filepath.Join(out, "recommend-coverage.png"), "the directory is left as it was")

	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	code, _, stderr = run(t, append(args[:len(args)-1], file)...)
	assert.Equal(t, cli.BadInput, code)
	assert.Contains(t, stderr, "--out "+file+": ")
}

// -o is written before the step summary is appended, and a step summary
// that cannot be written is an environment error (exit 2) that says so.
func TestGitHubFormatOutputFirst(t *testing.T) {
	dir := t.TempDir()
	suiteFile := filepath.Join(dir, "suite.txt")
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(dir, "missing", "summary.md"))
	code, stdout, stderr := run(t, exampleArgs("--format", "github", "-o", suiteFile)...)
	assert.Equal(t, cli.BadInput, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "mbopt: $GITHUB_STEP_SUMMARY: appending the step summary: open "+filepath.Join(dir, "missing", "summary.md")+": no such file or directory; point GITHUB_STEP_SUMMARY at a writable file")
	suite, err := os.ReadFile(suiteFile)
	require.NoError(t, err, "-o is written first")
	assert.NotEmpty(t, suite)

	// The other way round: -o cannot be written, so no summary is appended.
	summary := filepath.Join(dir, "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	code, _, stderr = run(t, exampleArgs("--format", "github", "-o", filepath.Join(dir, "nodir", "suite.txt"))...)
	assert.Equal(t, cli.BadInput, code, stderr)
	assert.NoFileExists(t, summary, "no summary announces a suite that was not written")
}

// The committed example has no manifest: costs come from each profile's
// recorded duration, so --budget and --objective cost work, and every text
// report compares Algorithm 2's suite cost with the cheapest one.
func TestCostsFromBareProfiles(t *testing.T) {
	const line = "  suite cost: Algorithm 2 24.09s (4 benchmarks); cheapest with the same coverage 20.78s (5 benchmarks, --objective cost); costs from each profile's recorded duration\n"
	const note = "mbopt: note: benchmark costs taken from each profile's recorded duration\n"
	tests := []struct {
		name   string
		args   []string
		want   []string
		stderr string
	}{
		// With the paper's flat impact breaking Algorithm 2's ties, its
		// suite costs 24.09s and a cheaper one exists.
		{"default", []string{"--impact", "flat"}, []string{"Minimal suite (Algorithm 2, project nodes): 4 of 19 benchmarks", line}, ""},
		// Under a budget the line starts with the budgeted suite's own cost.
		{"budget", []string{"--impact", "flat", "--budget", "10s"}, []string{"Selected suite (objective nodes, project nodes, budget 10.00s, cost 8.89s): 3 of 19 benchmarks, stopped: budget",
			"  suite cost: selected suite (--objective nodes, --budget 10.00s) 8.89s (3 benchmarks); Algorithm 2 24.09s (4 benchmarks); cheapest with the same coverage 20.78s (5 benchmarks, --objective cost); costs from each profile's recorded duration\n"}, note},
		{"cost objective", []string{"--impact", "flat", "--objective", "cost", "--certify"}, []string{
			"Selected suite (objective cost, project nodes, cost 20.78s): 5 of 19 benchmarks, stopped: complete",
			"  The --objective cost suite costs 20.78s; any suite with the same project coverage costs at least 20.52s (weighted LP relaxation optimum 20.523 s over 6 nodes × 7 benchmarks after reduction), so it costs at most 1.01× the cheapest.\n",
			line,
		}, note},
		// The attributed tie-break (the default) picks a suite that costs
		// 20.52s, which the cost LP certifies as the cheapest.
		{"attributed tie-break", []string{"--objective", "cost", "--certify"}, []string{
			"Selected suite (objective cost, project nodes, cost 20.52s): 4 of 19 benchmarks, stopped: complete",
			"  The --objective cost suite costs 20.52s; any suite with the same project coverage costs at least 20.52s (weighted LP relaxation optimum 20.523 s over 6 nodes × 7 benchmarks after reduction), so it is the cheapest.\n",
			"  suite cost: Algorithm 2 20.52s (4 benchmarks); no cheaper suite with the same coverage found (--objective cost); costs from each profile's recorded duration\n",
		}, note},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, exampleArgs(tt.args...)...)
			require.Equal(t, 0, code, stderr)
			assert.Equal(t, tt.stderr, stderr, "the cost source is a note, not a warning")
			for _, w := range tt.want {
				assert.Contains(t, stdout, w)
			}
		})
	}
}
