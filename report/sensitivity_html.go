package report

import (
	"fmt"
	"strings"

	"github.com/mbopt/mbopt/relevance/sensitivity"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
	"github.com/mbopt/mbopt/report/plot"
)

// sensitivityHeadline says what share of the application's CPU (app:
// [Document.appMeasure]) a slowdown of s.RecommendSlowdown would be caught
// in, by the whole suite and the minimal suite; "" when the curve has no
// such point.
func sensitivityHeadline(s *sensitivity.Result, app string) string {
	for i, c := range s.Caught {
		if c.Slowdown == s.RecommendSlowdown {
			h := fmt.Sprintf("A +%s slowdown would be caught in functions that take %s of the application's %s", render.Pct(c.Slowdown), render.Pct(c.AppShare), app)
			if s.SuiteCaught != nil {
				h += fmt.Sprintf(" (by the minimal suite: %s)", render.Pct(s.SuiteCaught[i].AppShare))
			}
			return h + "."
		}
	}
	return ""
}

// sensitivityFunctionsTable is the first sensitivityRows project
// functions by application share: each one's detectable slowdown and the
// benchmark that would catch it first.
func sensitivityFunctionsTable(s *sensitivity.Result) *doc.Table {
	t := &doc.Table{Columns: []doc.Column{{Head: "function"}, {Head: "app share", Align: doc.Right}, {Head: "detectable slowdown", Align: doc.Right},
		{Head: "caught first by"}}}
	for _, f := range s.Functions[:min(len(s.Functions), sensitivityRows)] {
		by := doc.FigureCell("")
		if f.Benchmark != "" {
			by = doc.CodeCell(f.Benchmark)
		}
		t.Add(doc.CodeCell(f.Function), doc.FigureCell(render.Pct(f.AppShare)), doc.FigureCell(slowdownText(f.DetectableSlowdown, s)), by)
	}
	return t
}

// sensitivityCurveTable is the caught curves of s: per slowdown, the share
// of the application's CPU the whole suite and the minimal suite catch
// (every form prints it).
func sensitivityCurveTable(s *sensitivity.Result) *doc.Table {
	t := &doc.Table{Columns: []doc.Column{{Head: "slowdown", Align: doc.Right}, {Head: "caught in (whole suite)", Align: doc.Right}, {Head: "minimal suite", Align: doc.Right}}}
	for i, c := range s.Caught {
		sub := "" // not known: the printers' dash
		if s.SuiteCaught != nil {
			sub = render.Pct(s.SuiteCaught[i].AppShare)
		}
		t.Add(doc.FigureCells("+"+render.Pct(c.Slowdown), render.Pct(c.AppShare), sub)...)
	}
	return t
}

// sensitivityRecommendationsTable is the first sensitivityRows functions
// a slowdown of s.RecommendSlowdown would go unnoticed in (every form
// prints it).
func sensitivityRecommendationsTable(s *sensitivity.Result) *doc.Table {
	t := &doc.Table{Columns: []doc.Column{{Head: "#", Align: doc.Right}, {Head: "function"}, {Head: "unnoticed in", Align: doc.Right},
		{Head: "noticed from", Align: doc.Right}, {Head: "caught first by"}}}
	for i, r := range s.Recommendations[:min(len(s.Recommendations), sensitivityRows)] {
		var marks []doc.Mark
		if r.Negligible {
			marks = append(marks, doc.Mark{Class: "negligible", Text: "negligible", Title: "tiny and rarely run"})
		}
		if closures := closuresOf(r); closures != nil {
			marks = append(marks, doc.Mark{Class: "closures", Text: "with its closures", Names: closures})
		}
		by := doc.FigureCell("") // no benchmark runs it: a dash
		if r.Benchmark != "" {
			by = doc.CodeCell(r.Benchmark)
		}
		t.Add(doc.FigureCell(fmt.Sprint(i+1)), doc.CodeCell(r.Function.Function, marks...), doc.FigureCell(render.Pct(r.Unnoticed)),
			doc.FigureCell(slowdownText(r.DetectableSlowdown, s)), by)
	}
	return t
}

// caughtFigure is the "caught-curve" figure: the share of the
// application's CPU (its instructions, as [Document.appMeasure] says) in
// functions whose slowdown the whole suite, and the minimal suite beside
// it, would catch, at each slowdown of the curve.
func (d *Document) caughtFigure(s *sensitivity.Result) plot.Figure {
	var x, whole, suite []float64
	for i, c := range s.Caught {
		x = append(x, 100*c.Slowdown)
		whole = append(whole, 100*c.AppShare)
		if s.SuiteCaught != nil {
			suite = append(suite, 100*s.SuiteCaught[i].AppShare)
		}
	}
	f := plot.Figure{
		Name:    "caught-curve",
		Title:   "What the suite would catch",
		Caption: "Share of the application's " + d.appMeasure("CPU time") + " in functions whose slowdown some benchmark would report, by the size of the slowdown of the function's own cost (the caught curve's slowdowns, on a logarithmic axis). A function is caught from its detectable slowdown: its best benchmark's minimum detectable effect over its share of that benchmark; a function no benchmark runs is never caught.",
		XLabel:  "slowdown of a function (%)",
		YLabel:  "application " + d.appMeasure("CPU") + " caught (%)",
		Lines:   []plot.Series{{Label: "whole suite", X: x, Y: whole}},
		XTicks:  x,
	}
	if suite != nil {
		f.Lines = append(f.Lines, plot.Series{Label: "minimal suite", X: x, Y: suite})
		f.Caption += " The minimal suite keeps the whole suite's coverage, not necessarily what it catches: the gap between the lines is what dropping the other benchmarks loses."
	}
	return f
}

// closuresOf returns the members of r other than its function, each
// without the function's name it starts with (".func1"); nil for none.
func closuresOf(r sensitivity.Recommendation) []string {
	var out []string
	for _, m := range r.Members {
		if m != r.Function.Function {
			out = append(out, strings.TrimPrefix(m, r.Function.Function))
		}
	}
	return out
}
