package analysis_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt/relevance/analysis"
)

func TestSkipGroups(t *testing.T) {
	data := "x_test.go:9: test data not found"
	skips := []analysis.Skip{
		{File: "a.log", Reason: data, ID: "m.BenchmarkA"},
		{File: "bad.pprof", Reason: "truncated"},
		{File: "b.log", Reason: data, ID: "m.BenchmarkB"},
		{File: "c.log", Reason: data, ID: "m.BenchmarkC"},
	}
	got := analysis.SkipGroups(skips)
	assert.Equal(t, []analysis.SkipGroup{
		{Reason: data, Skips: []analysis.Skip{skips[0], skips[2], skips[3]}},
		{Reason: "truncated", Skips: []analysis.Skip{skips[1]}},
	}, got, "by reason, in the order each first appears")
	assert.Empty(t, analysis.SkipGroups(nil))
	assert.Equal(t, "skipping 3 benchmarks (m.BenchmarkA, m.BenchmarkB, m.BenchmarkC; the report lists each with its file): "+data, got[0].String())
	assert.Equal(t, "skipping bad.pprof: truncated", got[1].String())
	assert.Equal(t, "skipping m.BenchmarkA (a.log): "+data, analysis.SkipGroups(skips[:1])[0].String())
}
