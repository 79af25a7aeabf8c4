package verdict_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/report/verdict"
)

// TestSkipped: a benchmark that skipped itself is "skipped (both)" (or
// base, head) with what it logged as the row's note, counted once as
// skipped in the tally, whatever its units; it was "failed (both) ...: the
// benchmark did not run" for github.com/golang/snappy's benchmarks without
// their test data. No annotation is written for it.
func TestSkipped(t *testing.T) {
	m := "github.com/golang/snappy"
	r := &compare.Report{Schema: compare.SchemaVersion, Module: m, Base: baseRev, Head: headRev, Settings: settings()}
	r.Results = append(r.Results,
		result(m, "BenchmarkEncode", "sec/op", 0.001, -0.01, 0.01, benchstats.Unchanged, nil),
		result(m, "BenchmarkDecode", "sec/op", -0.002, -0.01, 0.01, benchstats.Unchanged, nil))
	for _, name := range []string{"BenchmarkWordsDecode1e1", "Benchmark_UFlat0"} {
		r.Results = append(r.Results, compare.Result{ID: m + "." + name, Package: m, Name: name, Status: compare.Skipped, Side: "both",
			Error: "snappy_test.go:1249: skipping benchmark: open /usr/share/dict/words: no such file or directory"})
	}
	for _, unit := range []string{"sec/op", "B/op", "allocs/op"} {
		r.Results = append(r.Results, compare.Result{ID: m + ".BenchmarkRandom", Package: m, Name: "BenchmarkRandom", Unit: unit, Status: compare.Skipped, Side: "head",
			Error: "snappy_test.go:1335: test data not found; skipping benchmark without the -download flag"})
	}
	var b bytes.Buffer
	require.NoError(t, verdict.WriteText(&b, r))
	text := b.String()
	assert.Contains(t, text, "In all: 2 unchanged; 3 skipped.")
	assert.Regexp(t, `skipped \(both\) +BenchmarkWordsDecode1e1\n +snappy_test.go:1249: skipping benchmark: open /usr/share/dict/words: no such file or directory\n`, text)
	assert.Regexp(t, `skipped \(head\) +BenchmarkRandom\n +snappy_test.go:1335: test data not found; skipping benchmark without the -download flag\n`, text)
	assert.Equal(t, 1, strings.Count(text, "BenchmarkRandom"), text)
	assert.NotContains(t, text, "failed")

	b.Reset()
	require.NoError(t, verdict.WriteMarkdown(&b, r))
	md := b.String()
	assert.Contains(t, md, "skipped (both)")
	assert.Contains(t, md, "skipped (head)")
	assert.Contains(t, md, "3 skipped")
	assert.Equal(t, 1, strings.Count(md, "BenchmarkRandom"), md)

	b.Reset()
	sum, err := verdict.WriteGitHub(&b, r)
	require.NoError(t, err)
	assert.NotContains(t, b.String(), "skipped", "a skip is no warning")
	assert.Contains(t, string(sum.Markdown), "skipped (both)", "the step summary lists it")
}
