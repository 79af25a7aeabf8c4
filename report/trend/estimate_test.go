package trend_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/report/trend"
)

// estimateDocument is a series of three commits whose last regresses by
// 12%, with the estimate its comparison stored (est, nil: none), and the
// application measured on both versions at the last commit.
func estimateDocument(t *testing.T, est *culprit.AppImpact) *trend.Document {
	t.Helper()
	s := history.Series{ID: "example.com/m.BenchmarkQuery", Unit: "sec/op", Machine: history.Machine{GOOS: "linux", GOARCH: "amd64"}}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, c := range []float64{0.001, -0.001, 0.12} {
		e := benchstats.Estimate{Change: c, CI: benchstats.Interval{Low: c - 0.005, High: c + 0.005}}
		p := history.Point{Head: compare.Revision{Commit: fmt.Sprintf("%040d", i+2), Time: t0.Add(time.Duration(i) * time.Hour)},
			Point: detect.Point{Change: c, CI: e.CI}, Verdict: benchstats.Classify(e, 0.01, false), Threshold: 0.01}
		if i == 2 {
			p.AppImpact, p.Culprits = est, []string{"m.parse", "m.scan"}
		}
		s.Points = append(s.Points, p)
	}
	set := &history.Set{Baseline: compare.Revision{Commit: "1111111111111111111111111111111111111111"}, Series: []history.Series{s}}
	detected, err := set.Detect(detect.DefaultOptions, nil)
	require.NoError(t, err)
	d := trend.NewDocument(set.Baseline, detect.DefaultOptions, detected)
	d.Confirmations = []history.Confirmation{{Head: s.Points[2].Head, Base: set.Baseline.Commit, Comparison: 3,
		AppMeasurement: compare.AppMeasurement{Source: "benchmark example.com/m.BenchmarkApp", Unit: "sec/op",
			Estimate: benchstats.Estimate{Change: 0.07, CI: benchstats.Interval{Low: 0.05, High: 0.09}, BaseMedian: 2e-3, HeadMedian: 2.14e-3}}}}
	return d
}

// TestHistoryShowsEstimate: mbopt history's text, Markdown and JSON carry
// what compare estimated of a change's application impact, as compare
// says it, and the application measured on both versions (issue 30 item
// 5: the history had only the reference impact).
func TestHistoryShowsEstimate(t *testing.T) {
	relevant := &culprit.AppImpact{Estimate: 0.068, Low: 0.061, High: 0.074, Basis: culprit.BasisFunctions, RelevantShare: 0.9}
	outside := &culprit.AppImpact{Estimate: 0.0004, Low: -0.001, High: 0.002, Basis: culprit.BasisFunctions, RelevantShare: 0.02, NoImpact: true}
	for _, tc := range []struct {
		name           string
		est            *culprit.AppImpact
		text, markdown []string
		json           []string
		notJSON        []string
	}{
		{"estimated", relevant,
			[]string{"2 0000000000: estimated application impact +6.8% [+6.1% … +7.4%] from the changed functions, 90.0% of the movement in the application's functions; culprits m.parse, m.scan",
				"application measured at 0000000000 (2026-03-01): +7.0% [+5.0% … +9.0%] in sec/op (benchmark example.com/m.BenchmarkApp), against 1111111111"},
			[]string{"estimated application impact +6.8% \\[+6.1% … +7.4%\\]"},
			[]string{`"app_impact": 0.068`, `"app_impact_low": 0.061`, `"app_impact_high": 0.074`, `"app_impact_basis": "functions"`, `"culprits": [`, `"confirmations": [`},
			[]string{`"likely_no_app_impact"`}},
		{"likely none", outside,
			[]string{"estimated application impact +0.0% [-0.1% … +0.2%] from the changed functions, 2.0% of the movement in the application's functions: likely no application impact"},
			[]string{"likely no application impact"},
			[]string{`"likely_no_app_impact": true`},
			nil},
		{"not estimated", nil, nil, nil, nil, []string{`"app_impact"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := estimateDocument(t, tc.est)
			var text, md, js bytes.Buffer
			require.NoError(t, trend.WriteText(&text, d))
			require.NoError(t, trend.WriteMarkdown(&md, d))
			require.NoError(t, trend.WriteJSON(&js, d))
			for _, want := range tc.text {
				assert.Contains(t, text.String(), want)
			}
			if tc.est == nil {
				assert.NotContains(t, text.String(), "estimated application impact")
			}
			for _, want := range tc.markdown {
				assert.Contains(t, md.String(), want)
			}
			for _, want := range tc.json {
				assert.Contains(t, js.String(), want)
			}
			for _, not := range tc.notJSON {
				assert.NotContains(t, js.String(), not)
			}
		})
	}
}
