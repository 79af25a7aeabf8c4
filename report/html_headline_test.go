package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/report"
)

// TestHTMLHeadlineShowsSuiteCoverage: the headline puts the suite's own
// coverage (its last pick's cumulative ratios) next to the suite size; the
// whole suite's coverage is labelled as such. With the project criterion
// the two differ in overall coverage, as on the example (48.9% vs 59.3%).
func TestHTMLHeadlineShowsSuiteCoverage(t *testing.T) {
	d := &report.Document{
		Modules:    []string{"example.com/m"},
		Coverage:   report.Coverage{Project: report.Ratio{Covered: 47, Total: 51, Ratio: 47.0 / 51}, Overall: report.Ratio{Covered: 359, Total: 605, Ratio: 359.0 / 605}},
		Benchmarks: []report.Benchmark{{ID: "a"}, {ID: "b"}, {ID: "c"}},
		MinimalSuite: []report.Pick{
			{ID: "a", CumulativeProjectRatio: 0.6, CumulativeOverallRatio: 0.3},
			{ID: "b", CumulativeProjectRatio: 47.0 / 51, CumulativeOverallRatio: 0.489},
		},
	}
	var html bytes.Buffer
	require.NoError(t, report.WriteHTML(&html, d, nil))
	page := html.String()
	assert.Contains(t, page, "<div><b>92.2%</b>project-only coverage by all 3 benchmarks (47/51)</div>\n"+
		"<div><b>59.3%</b>overall coverage by all 3 benchmarks (359/605)</div>\n"+
		"<div><b>2 / 3</b>benchmarks in the suite</div>\n"+
		"<div><b>48.9%</b>overall coverage by the suite (project-only 92.2%)</div>\n")

	d.MinimalSuite = nil
	html.Reset()
	require.NoError(t, report.WriteHTML(&html, d, nil))
	assert.True(t, strings.Contains(html.String(), "<div><b>0.0%</b>overall coverage by the suite (project-only 0.0%)</div>"), "an empty suite covers nothing")
}
