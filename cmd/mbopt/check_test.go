package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// TestCheckDrift is issue 11's drift check: after the suite was saved, one
// benchmark is renamed and another deleted; check reports both, and the
// renamed one's new name as unprofiled, with the drift exit status.
func TestCheckDrift(t *testing.T) {
	f := newChangeFixture(t)
	t.Chdir(f.repo.Dir)
	saved := filepath.Join(t.TempDir(), "suite.json")
	code, _, errOut := f.suite(t, "--format", "json", "-o", saved)
	require.Equal(t, 0, code, errOut)

	code, out, errOut := run(t, "check", "--suite", saved)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "mbopt: drift check of "+saved+" (3 benchmarks) against .\nno drift\n", out)

	f.repo.Replace("q/q_test.go", "func BenchmarkB(", "func BenchmarkFormat(")
	f.repo.Replace("q/q_test.go", "func BenchmarkC(b *testing.B) {\n\tfor range b.N {\n\t\tq.Gc()\n\t}\n}\n", "")
	f.repo.Commit("rename B, delete C")

	code, out, errOut = run(t, "check", "--suite", saved)
	assert.Equal(t, cli.Drift, code)
	assert.Equal(t, "mbopt: drift check of "+saved+" (3 benchmarks) against .\n"+
		"  missing  example.com/fix/q BenchmarkB: BenchmarkB is no longer declared (removed or renamed); rebuild the suite\n"+
		"  missing  example.com/fix/q BenchmarkC: BenchmarkC is no longer declared (removed or renamed); rebuild the suite\n", out)
	assert.Equal(t, "mbopt: drift found: 2 findings; the saved suite no longer fits the repository (exit 4)\n", errOut)

	code, out, errOut = run(t, "check", "--suite", saved, "--app", f.app, "--micro", f.micro, "--min-coverage", "50", "--format", "json")
	assert.Equal(t, cli.Drift, code, errOut)
	var got struct {
		Suite    string                  `json:"suite"`
		Findings []analysis.DriftFinding `json:"findings"`
		Coverage struct {
			Covered, Total int
		} `json:"coverage"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	var kinds []string
	for _, f := range got.Findings {
		kinds = append(kinds, string(f.Kind)+" "+f.Benchmark)
	}
	assert.Equal(t, []string{"missing BenchmarkB", "missing BenchmarkC", "unprofiled BenchmarkFormat"}, kinds)
	assert.Equal(t, []string{"BenchmarkFormat"}, got.Findings[0].Candidates)
	// Only BenchmarkA is still declared: it covers Parse and Eval, 2 of 4.
	assert.Equal(t, 2, got.Coverage.Covered)
	assert.Equal(t, 4, got.Coverage.Total)

	// With the profiles, the new name is named in the text too, and the
	// coverage is below 60%.
	code, out, errOut = run(t, "check", "--suite", saved, "--app", f.app, "--micro", f.micro, "--min-coverage", "60")
	assert.Equal(t, cli.Drift, code, errOut)
	assert.Equal(t, "mbopt: drift check of "+saved+" (3 benchmarks) against .\n"+
		"suite coverage  2/4 project functions  50.0% (all profiled benchmarks: 100.0%)\n"+
		"  missing       example.com/fix/q BenchmarkB: BenchmarkB is no longer declared (removed, or renamed to BenchmarkFormat?); rebuild the suite\n"+
		"  missing       example.com/fix/q BenchmarkC: BenchmarkC is no longer declared (removed, or renamed to BenchmarkFormat?); rebuild the suite\n"+
		"  unprofiled    example.com/fix/q BenchmarkFormat: declared but not in the profiles; profile it (mbopt profile) and rebuild the suite\n"+
		"  low_coverage  the suite covers 2 of 4 project functions of the application (50.0%), below the minimum 60.0%; all profiled benchmarks cover 100.0%: rebuild the suite\n", out)
}

func TestCheckBadInput(t *testing.T) {
	f := newChangeFixture(t)
	t.Chdir(f.repo.Dir)
	notSuite := filepath.Join(t.TempDir(), "x.json")
	require.NoError(t, os.WriteFile(notSuite, []byte(`{"benchmarks": []}`), 0o644))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no suite", []string{"check"}, "--suite is required"},
		{"missing file", []string{"check", "--suite", "nosuch.json"}, "--suite nosuch.json: "},
		{"not a suite", []string{"check", "--suite", notSuite}, `no "invocations" list; write it with 'mbopt suite --format json -o`},
		{"app without micro", []string{"check", "--suite", notSuite, "--app", f.app}, "--app and --micro go together"},
		{"min-coverage without profiles", []string{"check", "--suite", notSuite, "--min-coverage", "50"}, "--min-coverage needs --app and --micro"},
		{"min-coverage out of range", []string{"check", "--suite", notSuite, "--min-coverage", "150"}, "--min-coverage must be a percentage in [0, 100], not 150"},
		{"bad format", []string{"check", "--suite", notSuite, "--format", "csv"}, "valid values are {text|json}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, tt.args...)
			assert.Equal(t, cli.BadInput, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tt.want)
		})
	}
}
