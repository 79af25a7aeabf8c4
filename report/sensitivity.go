package report

import (
	"fmt"
	"io"
	"strconv"

	"github.com/mbopt/mbopt/relevance/sensitivity"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
)

// sensitivityRows is how many functions and recommendations the text
// lists; the JSON has them all.
const sensitivityRows = 10

// writeSensitivityText writes the detectable slowdowns: the headline at
// the recommendations' slowdown, the caught curves, the project functions
// with the largest application shares, and the functions a slowdown would
// go unnoticed in. Nothing without d.Sensitivity.
func writeSensitivityText(w io.Writer, d *Document) {
	s, history := d.Sensitivity, d.MDEHistory
	if s == nil {
		return
	}
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("\nWhat the suite would catch (detectable slowdowns)\n")
	at := s.RecommendSlowdown
	if h := sensitivityHeadline(s, d.appMeasure("CPU")); h != "" {
		p("%s\n", h)
	}
	mdes := fmt.Sprintf("%s; threshold: the comparisons' %s, which a definite regression's whole interval must pass", mdesText(s, history), render.Pct(s.Threshold))
	if s.Source != "instructions" {
		mdes += "; shares from CPU samples, so a small share is known only roughly: collect with --source instructions for exact ones"
	}
	p("A function's detectable slowdown is min over benchmarks of (the threshold + the benchmark's MDE) / the function's share of it (%s).\n", mdes)
	doc.Text(w).Table(sensitivityCurveTable(s))
	p("\nProject functions by application share\n")
	doc.Text(w).Table(sensitivityFunctionsTable(s))
	if len(s.Recommendations) == 0 {
		return
	}
	p("\nBenchmark on their own: a +%s slowdown would go unnoticed in\n", render.Pct(at))
	doc.Text(w).Table(sensitivityRecommendationsTable(s))
}

// mdesText says where the benchmarks' minimum detectable effects of s
// came from: how many were measured, in the comparisons of the history
// database history when one was read, and the typical value the others
// took; with none measured, how to measure them.
func mdesText(s *sensitivity.Result, history string) string {
	def := render.Pct(s.DefaultMDE)
	switch {
	case s.Measured == 0 && history != "":
		return fmt.Sprintf("MDEs: the comparisons in %s measured none of these benchmarks, so all take the typical %s", history, def)
	case s.Measured == 0:
		return fmt.Sprintf("MDEs: none measured, so all take the typical %s: mbopt compare measures them into the module's history, which is read when it exists, or into --history's", def)
	case history != "":
		return fmt.Sprintf("MDEs: %d measured in the comparisons in %s, the others %s", s.Measured, history, def)
	}
	return fmt.Sprintf("MDEs: %d measured in comparisons, the others %s", s.Measured, def)
}

// slowdownText words a detectable slowdown of r: "+5.0%", or "never".
// One decimal, as the curve's slowdowns print, unless that would round it
// down onto a slowdown it exceeds (r's caught curve points and its
// RecommendSlowdown): then as many more digits, up to four, as set it
// apart ("+1.03%", not "+1.0%" beside a curve row "+1.0%" that does not
// catch it). Rounding up onto a point is left alone: the point catches it.
func slowdownText(s *float64, r *sensitivity.Result) string {
	if s == nil {
		return "never"
	}
	for digits := 1; ; digits++ {
		text := fmt.Sprintf("%.*f", digits, 100**s)
		if digits == 4 || !roundsOntoStep(text, *s, r) {
			return "+" + text + "%"
		}
	}
}

// roundsOntoStep reports whether text, a percentage printed for the
// slowdown d, reads as no more than one of r's slowdowns that d exceeds.
func roundsOntoStep(text string, d float64, r *sensitivity.Result) bool {
	printed, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return false
	}
	steps := []float64{r.RecommendSlowdown}
	for _, c := range r.Caught {
		steps = append(steps, c.Slowdown)
	}
	for _, step := range steps {
		if d > step && printed <= 100*step*(1+1e-12) {
			return true
		}
	}
	return false
}

// writeSensitivityMarkdown writes the detectable slowdowns as Markdown:
// the headline, the caught curves and the functions to benchmark on
// their own (the text's sections, as tables). Nothing without
// d.Sensitivity.
func writeSensitivityMarkdown(w io.Writer, p func(string, ...any), d *Document, fold func(string) func()) {
	s := d.Sensitivity
	if s == nil {
		return
	}
	p("## What the suite would catch\n\n")
	if h := sensitivityHeadline(s, d.appMeasure("CPU")); h != "" {
		p("%s\n\n", h)
	}
	doc.Markdown(w).Table(sensitivityCurveTable(s))
	p("\n")
	if len(s.Recommendations) == 0 {
		return
	}
	end := fold(fmt.Sprintf("functions a +%s slowdown would go unnoticed in", render.Pct(s.RecommendSlowdown)))
	doc.Markdown(w).Table(sensitivityRecommendationsTable(s))
	p("\n")
	end()
}
