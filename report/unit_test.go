package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	stdhtml "html"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/sensitivity"
	"github.com/mbopt/mbopt/report"
	"github.com/mbopt/mbopt/report/plot"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// exampleProfiles are the example module's CPU profiles.
const exampleProfiles = "../testdata/profiles/example"

// instructionExample writes exampleProfiles as instruction profiles
// (proftest.Instructions) to a new directory: app.pprof and micro/.
func instructionExample(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	proftest.Instructions(t, filepath.Join(exampleProfiles, "app.pprof"), filepath.Join(dir, "app.pprof"))
	micro, err := filepath.Glob(filepath.Join(exampleProfiles, "micro", "*.pprof"))
	require.NoError(t, err)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "micro"), 0o755))
	for _, m := range micro {
		proftest.Instructions(t, m, filepath.Join(dir, "micro", filepath.Base(m)))
	}
	return dir
}

// TestInstructionWeights: under AllowNonCPU with instruction profiles
// every figure of the application's weight prints in instructions, never
// as seconds of CPU ("11660000.00s CPU" before), in the text, the
// Markdown and the HTML, and the JSON names the unit; CPU profiles keep
// seconds and no unit.
func TestInstructionWeights(t *testing.T) {
	src, dir := exampleProfiles, instructionExample(t)
	seconds := regexp.MustCompile(`[0-9]s\b`)
	for _, tc := range []struct {
		name, app, micro, unit string
		want                   []string // in the text
	}{
		{"instructions", filepath.Join(dir, "app.pprof"), filepath.Join(dir, "micro"), "instructions", []string{
			"Application  1 profile, 605 functions (51 project), 11.7M instructions, 2.93M instructions (25.1%) outside project code\n",
			"7.43M instructions  63.7%  8.92M instructions  76.5%",
			"      2.62M instructions  project   example.com/tinytsdb/encoding.(*bitReader).readBits  (attributed 2.66M instructions)\n",
			"      2.35M instructions  external  runtime (129 functions)\n",
			// Benchmark costs are seconds still.
			"suite cost: Algorithm 2 20.52s (4 benchmarks)",
			"called by net/http.HandlerFunc.ServeHTTP (8.72M instructions cum)",
			"hottest beneath: example.com/tinytsdb/storage.(*Table).Stats (70k instructions)",
		}},
		{"cpu", filepath.Join(src, "app.pprof"), filepath.Join(src, "micro"), "", []string{
			"Application  1 profile, 605 functions (51 project), 11.66s CPU, 2.93s (25.1%) outside project code\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{tc.app}, Micro: []string{tc.micro},
				Modules: []string{"example.com/tinytsdb"}, AllowNonCPU: true, Recommend: 3, Targets: recommend.Callable})
			require.NoError(t, err)
			d := report.Build(rep)
			assert.Equal(t, tc.unit, d.Application.Unit)
			var text, md, html, js bytes.Buffer
			require.NoError(t, report.WriteText(&text, d, report.TextOptions{Explain: true}))
			require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{}))
			require.NoError(t, report.WriteHTML(&html, d, nil))
			require.NoError(t, report.WriteJSON(&js, d))
			for _, want := range tc.want {
				assert.Contains(t, text.String(), want)
			}
			var doc struct {
				Application map[string]any `json:"application"`
			}
			require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
			unit, ok := doc.Application["unit"]
			assert.Equal(t, tc.unit != "", ok, "the JSON names a unit only when it is not seconds")
			if tc.unit == "" {
				return
			}
			assert.Equal(t, tc.unit, unit)
			weights := regexp.MustCompile(`(?m)^  suite cost: .*$`).ReplaceAllString(text.String(), "")
			assert.NotRegexp(t, seconds, weights, "no application weight in seconds")
			assert.Contains(t, md.String(), "using 11.7M instructions (2.93M instructions, 25.1%, with no project function on the stack)")
			assert.Contains(t, html.String(), "<b>11.7M instructions</b>application instructions (605 functions")
			assert.NotContains(t, html.String(), "application CPU")
		})
	}
}

// TestInstructionSensitivity: under AllowNonCPU with an instruction
// profile of the application (the benchmarks' CPU profiles beside it) the
// detectable slowdowns' lines (the headline, the caught objective's
// note, the HTML's legend, the figures) speak of the application's
// instructions, never of its CPU, in the text, the Markdown and the HTML
// ("of the application's CPU" before); the JSON's shares are of the
// application's unit, which it names. CPU profiles keep "CPU".
func TestInstructionSensitivity(t *testing.T) {
	src, dir := exampleProfiles, instructionExample(t)
	cpu := regexp.MustCompile(`application('s)? CPU`)
	for _, tc := range []struct {
		name, app, micro, unit, noun string
	}{
		{"instructions", filepath.Join(dir, "app.pprof"), filepath.Join(src, "micro"), "instructions", "instructions"},
		{"cpu", filepath.Join(src, "app.pprof"), filepath.Join(src, "micro"), "", "CPU"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{tc.app}, Micro: []string{tc.micro},
				Modules: []string{"example.com/tinytsdb"}, AllowNonCPU: true, Select: analysis.SelectConfig{Objective: optimize.Caught},
				Sensitivity: &analysis.SensitivityConfig{}})
			require.NoError(t, err)
			d := report.Build(rep)
			var text, md, html, js bytes.Buffer
			require.NoError(t, report.WriteText(&text, d, report.TextOptions{}))
			require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{}))
			require.NoError(t, report.WriteHTML(&html, d, nil))
			require.NoError(t, report.WriteJSON(&js, d))
			headline := "A +10.0% slowdown would be caught in functions that take 23.2% of the application's " + tc.noun + " (by the minimal suite: 23.2%)."
			note := "The suite keeps what the whole suite would catch: a +10.0% slowdown would be caught in functions that take 23.2% of the application's " + tc.noun + " ("
			page := stdhtml.UnescapeString(html.String())
			for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": page} {
				assert.Contains(t, out, headline, name)
				assert.Contains(t, out, note, name)
			}
			assert.Contains(t, page, "<i>unnoticed in</i>: the share of the application's "+tc.noun+" a +10.0% slowdown")
			var curve *plot.Figure
			for _, f := range report.Figures(d) {
				if f.Name == "caught-curve" {
					curve = &f
				}
				if tc.unit != "" {
					assert.NotRegexp(t, cpu, f.Caption+f.XLabel+f.YLabel, f.Name)
					for _, l := range f.Lines {
						assert.NotRegexp(t, cpu, l.Label, f.Name)
					}
				}
			}
			require.NotNil(t, curve)
			assert.Equal(t, "application "+tc.noun+" caught (%)", curve.YLabel)
			var doc struct {
				Application struct {
					Unit string `json:"unit"`
				} `json:"application"`
				Sensitivity *sensitivity.Result `json:"sensitivity"`
			}
			require.NoError(t, json.Unmarshal(js.Bytes(), &doc))
			require.NotNil(t, doc.Sensitivity)
			assert.Equal(t, tc.unit, doc.Application.Unit, "the unit of the sensitivity's application shares")
			assert.InDelta(t, 0.232, doc.Sensitivity.Caught[2].AppShare, 0.0005)
			if tc.unit != "" {
				for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": page} {
					assert.NotRegexp(t, cpu, out, name)
				}
			}
		})
	}
}
