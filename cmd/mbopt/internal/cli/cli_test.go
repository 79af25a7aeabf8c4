package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt/relevance/analysis"
)

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
