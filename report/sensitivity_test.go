package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/report"
	"github.com/mbopt/mbopt/report/plot"
)

// TestSensitivitySections: an analysis with the detectable slowdowns shows
// them in the text, the Markdown, the JSON and the HTML, and gets the
// caught-curve figure (the whole suite's curve and the minimal suite's);
// one without shows none.
func TestSensitivitySections(t *testing.T) {
	cfg := analysis.Config{App: []string{"../testdata/profiles/example/app.pprof"}, Micro: []string{"../testdata/profiles/example/micro"}, Modules: []string{"example.com/tinytsdb"}}
	plain, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	cfg.Sensitivity = &analysis.SensitivityConfig{}
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	for _, tc := range []struct {
		rep  *analysis.Report
		want bool
	}{{rep, true}, {plain, false}} {
		d := report.Build(tc.rep)
		var text, md, js bytes.Buffer
		require.NoError(t, report.WriteText(&text, d, report.TextOptions{}))
		require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{}))
		require.NoError(t, report.WriteJSON(&js, d))
		var doc map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
		_, hasJSON := doc["sensitivity"]
		assert.Equal(t, tc.want, hasJSON)
		assert.Equal(t, tc.want, bytes.Contains(text.Bytes(), []byte("A +10.0% slowdown would be caught in functions that take 23.2% of the application's CPU (by the minimal suite: 0.0%).")), text.String())
		assert.Equal(t, tc.want, bytes.Contains(md.Bytes(), []byte("## What the suite would catch")))
		assert.Equal(t, tc.want, bytes.Contains(md.Bytes(), []byte("| 8 | `example.com/tinytsdb/storage.(*Table).Stats` | 0.6% | never | – |")), md.String())
		var html bytes.Buffer
		require.NoError(t, report.WriteHTML(&html, d, nil))
		assert.Equal(t, tc.want, bytes.Contains(html.Bytes(), []byte(`<h2 id="sensitivity">What the suite would catch</h2>
<p>A &#43;10.0% slowdown would be caught in functions that take 23.2% of the application&#39;s CPU (by the minimal suite: 0.0%).`)), html.String())
		var curve *plot.Figure
		for _, f := range report.Figures(d) {
			if f.Name == "caught-curve" {
				curve = &f
			}
		}
		if !tc.want {
			assert.Nil(t, curve)
			continue
		}
		require.NotNil(t, curve)
		require.Len(t, curve.Lines, 2)
		assert.Equal(t, []float64{1, 5, 10, 50}, curve.XTicks)
		for i, want := range [][]float64{{0, 0, 23.2, 24.7}, {0, 0, 0, 22.8}} {
			assert.Equal(t, curve.XTicks, curve.Lines[i].X)
			assert.InDeltaSlice(t, want, curve.Lines[i].Y, 0.05, curve.Lines[i].Label)
		}
	}
}

// TestCaughtObjectiveSections: a suite chosen by the caught objective says
// so, and what it keeps of what the whole suite catches, in the text, the
// Markdown, the JSON and the HTML, and its certificate bounds the smallest
// suite that catches as much.
func TestCaughtObjectiveSections(t *testing.T) {
	cfg := analysis.Config{App: []string{"../testdata/profiles/example/app.pprof"}, Micro: []string{"../testdata/profiles/example/micro"}, Modules: []string{"example.com/tinytsdb"},
		Select: analysis.SelectConfig{Objective: optimize.Caught}, Certify: true, Sensitivity: &analysis.SensitivityConfig{}}
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	d := report.Build(rep)
	var text, md, js, html bytes.Buffer
	require.NoError(t, report.WriteText(&text, d, report.TextOptions{}))
	require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{}))
	require.NoError(t, report.WriteJSON(&js, d))
	require.NoError(t, report.WriteHTML(&html, d, nil))
	note := "The suite keeps what the whole suite would catch: a +10.0% slowdown would be caught in functions that take 23.2% of the application's CPU (minimum detectable effects: none measured: the typical value of the profiles' source)."
	cert := "The caught objective's suite has 2 benchmarks; any suite that catches what the whole suite catches needs at least 2"
	assert.Contains(t, text.String(), "Selected suite (objective caught, project nodes, what a +10.0% slowdown would be caught in): 2 of 19 benchmarks, stopped: complete")
	assert.Contains(t, text.String(), note)
	assert.Contains(t, text.String(), cert)
	assert.Contains(t, text.String(), "A +10.0% slowdown would be caught in functions that take 23.2% of the application's CPU (by the minimal suite: 23.2%).")
	assert.Contains(t, md.String(), "Objective **caught**: the functions whose +10.0% slowdown some pick would report, weighed by application share; stopped: no benchmark catches more.")
	assert.Contains(t, md.String(), note)
	assert.Contains(t, html.String(), "Objective caught: the functions whose &#43;10.0% slowdown some pick would report")
	assert.Contains(t, html.String(), "The suite keeps what the whole suite would catch")
	var doc struct {
		Selection struct {
			Objective string             `json:"objective"`
			Caught    *report.CaughtKept `json:"caught"`
		} `json:"selection"`
		Certificate report.Certificate `json:"certificate"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
	assert.Equal(t, "caught", doc.Selection.Objective)
	require.NotNil(t, doc.Selection.Caught)
	assert.InDelta(t, 0.2316, doc.Selection.Caught.SuiteShare, 1e-4)
	assert.Equal(t, doc.Selection.Caught.WholeShare, doc.Selection.Caught.SuiteShare)
	assert.Equal(t, 0.1, doc.Selection.Caught.Slowdown)
	assert.Equal(t, "caught", doc.Certificate.Objective)
}

// TestDetectableSlowdownDigits: a detectable slowdown prints with one
// decimal, like the caught curve's rows, unless that would round it down
// onto a curve slowdown it exceeds: +1.033% beside a row "+1.0%" that does
// not catch it prints as +1.03%, not +1.0%.
func TestDetectableSlowdownDigits(t *testing.T) {
	cfg := analysis.Config{App: []string{"../testdata/profiles/example/app.pprof"}, Micro: []string{"../testdata/profiles/example/micro"}, Modules: []string{"example.com/tinytsdb"},
		Sensitivity: &analysis.SensitivityConfig{}}
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	const top = "example.com/tinytsdb/encoding.(*bitReader).readBits"
	require.Equal(t, top, rep.Sensitivity.Functions[0].Function)
	for _, tc := range []struct {
		slowdown float64
		want     string
	}{
		{0.01033, "+1.03%"},     // the issue's: not caught at the +1.0% row
		{0.0104, "+1.04%"},      // would round to +1.0%
		{0.00996, "+1.0%"},      // rounds up onto +1.0%, which catches it
		{0.01, "+1.0%"},         // caught at +1.0%
		{0.0234, "+2.3%"},       // no curve point near
		{0.1004, "+10.04%"},     // the recommendations' +10%
		{0.050001, "+5.0001%"},  // as many digits as it takes
		{0.0500001, "+5.0000%"}, // up to four
	} {
		d := report.Build(rep)
		s := tc.slowdown
		d.Sensitivity.Functions[0].DetectableSlowdown = &s
		var text bytes.Buffer
		require.NoError(t, report.WriteText(&text, d, report.TextOptions{}))
		var row []string
		for line := range strings.Lines(text.String()) {
			if f := strings.Fields(line); len(f) == 4 && f[0] == top {
				row = f
			}
		}
		require.NotNil(t, row, text.String())
		assert.Equal(t, tc.want, row[2], "%g", tc.slowdown)
	}
}
