package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/analysis"
)

func TestWord(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		override map[mbopt.Field]string
		want     string
	}{
		{"named fields", mbopt.Errorf("%s must be positive, not %d", mbopt.Field("Select.Top"), -1), nil, "--top must be positive, not -1"},
		{"field before", mbopt.Field("Bench").Errorf("missing argument to repetition operator"), nil, "--bench: missing argument to repetition operator"},
		{"field without flag", mbopt.Field("Dir").Errorf("x is not a directory"), nil, "x is not a directory"},
		{"override", mbopt.Field("Dir").Errorf("x is not a directory"), map[mbopt.Field]string{"Dir": "-C"}, "-C: x is not a directory"},
		{"wrapped", fmt.Errorf("collecting: %w", mbopt.Field("Out").Errorf("o is a file")), nil, "collecting: --out: o is a file"},
		{"nested", mbopt.Errorf("selecting: %w", mbopt.Errorf("%s is 0", mbopt.Field("Select.Budget"))), nil, "selecting: --budget is 0"},
		{"module", analysis.CheckModules([]string{"x y"}), nil, `--module "x y": contains white space; a module prefix is an import path such as example.com/project`},
		{"warning", &analysis.ModuleFromGoModWarning{Module: "m", GoMod: "go.mod"}, nil, "project module m taken from go.mod; use --module to choose another"},
		{"limit", errors.New("a.pprof: file is 9 bytes, over the 8-byte limit (Limits.MaxFileBytes)"), nil, "a.pprof: file is 9 bytes, over the 8-byte limit (raise it with --max-profile-bytes)"},
		{"plain", errors.New("boom"), nil, "boom"},
	}
	Name("--top", analysis.FieldSelectTop)
	Name("--bench", "Bench")
	Name("--out", "Out")
	Name("--budget", analysis.FieldSelectBudget)
	Name("--module", analysis.FieldModules)
	for _, tt := range tests {
		got := Word(tt.err, tt.override)
		if got.Error() != tt.want {
			t.Errorf("%s: Word = %q, want %q", tt.name, got, tt.want)
		}
		if !errors.Is(got, tt.err) {
			t.Errorf("%s: the worded error does not unwrap to the original", tt.name)
		}
		if again := Word(got, nil); again.Error() != tt.want {
			t.Errorf("%s: wording twice gives %q", tt.name, again)
		}
	}
}

func TestUsage(t *testing.T) {
	err := Usage(errors.New("unknown command \"x\" for \"mbopt\"\n\nDid you mean this?\n\tanalyze\n"))
	want := "unknown command \"x\" for \"mbopt\"; run 'mbopt --help' for usage\nDid you mean this?\n\tanalyze"
	if err.Error() != want || Code(err, nil) != BadInput {
		t.Errorf("Usage = %q (exit %d), want %q (exit 2)", err, Code(err, nil), want)
	}
}

func TestManual(t *testing.T) {
	const src = "// Tool does things.\n//\n// # tool run\n//\n//\ttool run [flags]\n//\n// Run runs.\n//\n// # Exit status\n//\n// 0 on success.\npackage main\n"
	tests := []struct {
		titles []string
		want   string
	}{
		{[]string{""}, "Tool does things."},
		{[]string{"tool run"}, "\ttool run [flags]\n\nRun runs."},
		{[]string{"", "Exit status"}, "Tool does things.\n\nExit status\n\n0 on success."},
		{[]string{"no such section"}, ""},
	}
	for _, tt := range tests {
		if got := Manual(src, tt.titles...); got != tt.want {
			t.Errorf("Manual(%q) = %q, want %q", tt.titles, got, tt.want)
		}
	}
}

// A module whose benchmarks skip themselves for want of test data
// (golang/snappy without -download: 24 of them) gets one warning per
// reason, not a line per benchmark; a profile skipped alone keeps its file.
func TestSkippedOneWarningPerReason(t *testing.T) {
	data := "x_test.go:9: test data not found"
	rep := &analysis.Report{Skipped: []analysis.Skip{
		{File: "a.log", Reason: data, ID: "m.BenchmarkA"},
		{File: "bad.pprof", Reason: "truncated"},
		{File: "b.log", Reason: data, ID: "m.BenchmarkB"},
		{File: "c.log", Reason: data, ID: "m.BenchmarkC"},
		{File: "d.log", Reason: data, ID: "m.BenchmarkD"},
		{File: "e.log", Reason: "exit status 1", ID: "m.BenchmarkE"},
	}}
	var b strings.Builder
	Skipped(&b, rep)
	assert.Equal(t, "mbopt: warning: skipping 4 benchmarks (m.BenchmarkA, m.BenchmarkB, m.BenchmarkC and 1 more; the report lists each with its file): "+data+"\n"+
		"mbopt: warning: skipping bad.pprof: truncated\n"+
		"mbopt: warning: skipping m.BenchmarkE (e.log): exit status 1\n", b.String())
}
