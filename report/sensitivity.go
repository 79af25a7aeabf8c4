package report

import (
	"fmt"
	"io"

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
// go unnoticed in. Nothing without s.
func writeSensitivityText(w io.Writer, s *sensitivity.Result) {
	if s == nil {
		return
	}
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("\nWhat the suite would catch (detectable slowdowns)\n")
	at := s.RecommendSlowdown
	for i, c := range s.Caught {
		if c.Slowdown == at {
			p("A %s slowdown would be caught in functions that take %s of the application's CPU", render.Pct(at), render.Pct(c.AppShare))
			if s.SuiteCaught != nil {
				p(" (by the minimal suite: %s)", render.Pct(s.SuiteCaught[i].AppShare))
			}
			p(".\n")
		}
	}
	mdes := fmt.Sprintf("MDEs: %d measured in comparisons, the others %s; none counts below the comparisons' %s threshold", s.Measured, render.Pct(s.DefaultMDE), render.Pct(s.Threshold))
	if s.Source != "instructions" {
		mdes += "; shares from CPU samples, so a small share is known only roughly: collect with --source instructions for exact ones"
	}
	p("A function's detectable slowdown is min over benchmarks of the benchmark's MDE / the function's share of it (%s).\n", mdes)
	doc.Text(w).Table(sensitivityCurveTable(s))
	p("\nProject functions by application share\n")
	t := &render.Table{}
	t.Row("function", "app share", "detectable slowdown", "caught first by")
	for _, f := range s.Functions[:min(len(s.Functions), sensitivityRows)] {
		t.Row(f.Function, render.Pct(f.AppShare), slowdownText(f.DetectableSlowdown), f.Benchmark)
	}
	t.Write(w)
	if len(s.Recommendations) == 0 {
		return
	}
	p("\nBenchmark on their own: a +%s slowdown would go unnoticed in\n", render.Pct(at))
	for i, r := range s.Recommendations[:min(len(s.Recommendations), sensitivityRows)] {
		p("%3d. %s: %s of the application, %s%s\n", i+1, r.Function.Function, render.Pct(r.Unnoticed), noticed(r.DetectableSlowdown), folded(r))
	}
}

// folded words what a recommendation counts beyond its function: its
// closures (the Members folded into it) and whether it is negligible.
func folded(r sensitivity.Recommendation) string {
	out := ""
	if n := len(r.Members); n > 1 || n == 1 && r.Members[0] != r.Function.Function {
		out += fmt.Sprintf(" (%d functions folded in: it and its closures)", n)
	}
	if r.Negligible {
		out += " [negligible: tiny and rarely run]"
	}
	return out
}

// slowdownText words a detectable slowdown: "+5.0%", or "never".
func slowdownText(s *float64) string {
	if s == nil {
		return "never"
	}
	return "+" + render.Pct(*s)
}

// noticed says what slowdown the suite would notice today.
func noticed(s *float64) string {
	if s == nil {
		return "no benchmark runs it"
	}
	return "only a +" + render.Pct(*s) + " slowdown would be noticed today"
}

// writeSensitivityMarkdown writes the detectable slowdowns as Markdown:
// the headline, the caught curves and the functions to benchmark on
// their own (the text's sections, as tables). Nothing without s.
func writeSensitivityMarkdown(w io.Writer, p func(string, ...any), s *sensitivity.Result, fold func(string) func()) {
	if s == nil {
		return
	}
	p("## What the suite would catch\n\n")
	for i, c := range s.Caught {
		if c.Slowdown == s.RecommendSlowdown {
			p("A %s slowdown would be caught in functions that take **%s** of the application's CPU", render.Pct(c.Slowdown), render.Pct(c.AppShare))
			if s.SuiteCaught != nil {
				p(" (by the minimal suite: %s)", render.Pct(s.SuiteCaught[i].AppShare))
			}
			p(".\n\n")
		}
	}
	doc.Markdown(w).Table(sensitivityCurveTable(s))
	p("\n")
	if len(s.Recommendations) == 0 {
		return
	}
	end := fold(fmt.Sprintf("functions a +%s slowdown would go unnoticed in", render.Pct(s.RecommendSlowdown)))
	p("| # | function | app share | noticed from | caught first by |\n|--:|---|--:|--:|---|\n")
	for i, r := range s.Recommendations[:min(len(s.Recommendations), sensitivityRows)] {
		by := "-"
		if r.Benchmark != "" {
			by = render.MarkdownCellCode(r.Benchmark)
		}
		p("| %d | %s%s | %s | %s | %s |\n", i+1, render.MarkdownCellCode(r.Function.Function), folded(r), render.Pct(r.Unnoticed), slowdownText(r.DetectableSlowdown), by)
	}
	p("\n")
	end()
}
