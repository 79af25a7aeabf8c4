package report

import (
	"fmt"
	"slices"

	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
)

// The analysis report's tables and notes, built once here and printed by
// package doc's printers in every format: a new column or statement is
// added here, not once per format.

// suiteNotes are the statements under the suite: what the caught
// objective's suite keeps, the optimality certificate, the cost
// certificate and the suite's cost, each when the analysis made it.
func (d *Document) suiteNotes() []doc.Note {
	var notes []doc.Note
	if sel := d.Selection; sel != nil && sel.Caught != nil {
		notes = append(notes, doc.Note{Label: "Caught", Text: CaughtText(sel.Caught, d.MDEHistory, d.Application.Unit)})
	}
	if c := d.Certificate; c != nil {
		notes = append(notes, doc.Note{Label: "Optimality", Text: CertificateText(c)})
	}
	if c := d.CostCertificate; c != nil {
		notes = append(notes, doc.Note{Label: "Cost optimality", Text: CostCertificateText(c)})
	}
	if c := d.SuiteCost; c != nil {
		notes = append(notes, doc.Note{Label: "Suite cost", Text: SuiteCostText(c), Fragment: true})
	}
	return notes
}

// scopeNote says what the benchmarks' files are and what part of each
// benchmark's run they count, under the benchmarks.
func (d *Document) scopeNote() doc.Note {
	return doc.Note{Label: "Scope", Text: d.scopeText(), Class: "scope"}
}

// printNotes prints notes with p.
func printNotes(p doc.Printer, notes []doc.Note) {
	for _, n := range notes {
		p.Note(n)
	}
}

// impactColumns are the impact columns (see [Document.impactHeads]).
func (d *Document) impactColumns() []doc.Column {
	var cols []doc.Column
	for _, h := range d.impactHeads() {
		cols = append(cols, doc.Column{Head: h, Align: doc.Right})
	}
	return cols
}

// impactFigures are the cells under [Document.impactColumns].
func (d *Document) impactFigures(attributed, attributedShare, flat, flatShare float64) []doc.Cell {
	return doc.FigureCells(d.impactCells(attributed, attributedShare, flat, flatShare)...)
}

// inNotes hides a mark from the text, which says the same in the row's
// notes: a marginal pick, a negligible or maybe unseen recommendation.
const inNotes = doc.TextForm

// thinMark is the HTML badge of a benchmark whose profile is thin; none
// for another.
func (d *Document) thinMark(id string) []doc.Mark {
	if slices.ContainsFunc(d.ThinBenchmarks, func(t ThinBenchmark) bool { return t.ID == id }) {
		return []doc.Mark{{Class: "thin", Text: "thin", Hide: doc.TextForm | doc.MarkdownForm}}
	}
	return nil
}

// hasCost reports whether the suite's picks have costs: a selection that
// counted them.
func (d *Document) hasCost() bool { return d.Selection != nil && d.Selection.TotalCostSeconds > 0 }

// picksTable is the suite pick by pick: each pick's coverage gain, the
// cumulative coverage, its impact and, with costs, its cost; with explain
// the text lists the functions each pick adds.
func (d *Document) picksTable(explain bool) *doc.Table {
	t := &doc.Table{Columns: append([]doc.Column{{Head: "#", Align: doc.Right}, {Head: "benchmark"},
		{Head: "added", Align: doc.Right}, {Head: "project", Align: doc.Right}, {Head: "overall", Align: doc.Right}}, d.impactColumns()...)}
	cost := d.hasCost()
	if cost {
		t.Columns = append(t.Columns, doc.Column{Head: "cost", Align: doc.Right, Detail: true}, doc.Column{Head: "cumulative cost", Align: doc.Right, Detail: true})
	}
	for i, s := range d.MinimalSuite {
		var marks []doc.Mark
		if s.Marginal {
			marks = append(marks, doc.Mark{Class: "marginal", Text: "marginal", Hide: inNotes})
		}
		cells := append([]doc.Cell{doc.FigureCell(fmt.Sprint(i + 1)), doc.CodeCell(s.ID, append(marks, d.thinMark(s.ID)...)...)},
			doc.FigureCells(fmt.Sprintf("+%d", s.Added), render.Pct(s.CumulativeProjectRatio), render.Pct(s.CumulativeOverallRatio))...)
		cells = append(cells, d.impactFigures(s.AttributedImpactSeconds, s.AttributedImpactShare, s.ImpactSeconds, s.ImpactShare)...)
		if cost {
			st := d.Selection.Steps[i]
			cells = append(cells, doc.FigureCells(secs(st.CostSeconds), secs(st.CumulativeCostSeconds))...)
		}
		t.Add(cells...)
		if s.Marginal {
			t.Note(d.marginalNote(s))
		}
		if explain {
			t.Note(d.explainLines(s.Functions)...)
		}
	}
	return t
}

// recommendationsTable is the recommended benchmark targets (Algorithm
// 3): what each adds, its impact and the project coverage after it; with
// callable targets where it is, which test can call it, its callers and
// the hottest functions beneath it; its rules' marks; with explain the
// text lists the functions each adds.
func (d *Document) recommendationsTable(explain bool) *doc.Table {
	t := &doc.Table{Columns: append(append([]doc.Column{{Head: "#", Align: doc.Right}, {Head: "function"},
		{Head: "+project", Align: doc.Right}, {Head: "+external", Align: doc.Right}}, d.impactColumns()...),
		doc.Column{Head: "project after", Align: doc.Right})}
	details := d.RecommendationTargets != ""
	if details {
		t.Columns = append(t.Columns, doc.Column{Head: "where", Detail: true}, doc.Column{Head: "test", Detail: true},
			doc.Column{Head: "called by", Detail: true}, doc.Column{Head: "hottest beneath", Detail: true})
	}
	for i, r := range d.Recommendations {
		var marks []doc.Mark
		if n := r.Negligible; n != nil {
			marks = append(marks, doc.Mark{Class: "negligible", Text: "negligible: " + n.what(), Title: n.what(), Hide: inNotes})
		}
		if len(r.MaybeCoveredBy) > 0 {
			marks = append(marks, doc.Mark{Class: "unseen", Text: "may have run unseen in", Names: r.MaybeCoveredBy, Hide: inNotes})
		}
		cells := append([]doc.Cell{doc.FigureCell(fmt.Sprint(i + 1)), doc.CodeCell(r.Function, marks...)},
			doc.FigureCells(fmt.Sprintf("+%d", r.AddedProject), fmt.Sprintf("+%d", r.AddedExternal))...)
		cells = append(cells, d.impactFigures(r.AttributedImpactSeconds, r.AttributedImpactShare, r.ImpactSeconds, r.ImpactShare)...)
		cells = append(cells, doc.FigureCell(render.Pct(r.CumulativeProjectRatio)))
		if details {
			test := "internal"
			if r.exported() {
				test = "external"
			}
			var callers, hottest []doc.Item
			for _, c := range r.Callers {
				callers = append(callers, doc.Item{Name: c.Function})
			}
			for _, h := range r.Hottest {
				hottest = append(hottest, doc.Item{Name: h.Function, After: d.weight(h.FlatSeconds)})
			}
			cells = append(cells, doc.CodeCell(r.source()), doc.WordsCell(test), doc.NamesCell(callers...), doc.NamesCell(hottest...))
		}
		t.Add(cells...)
		if details {
			t.Note(r.detailLines(d.weight)...)
		}
		t.Note(r.ruleLines()...)
		if explain {
			t.Note(d.explainLines(r.Functions)...)
		}
	}
	return t
}

// benchmarksTable is every benchmark by impact: its coverage, its impact
// and whether the suite keeps it; at most max rows when max is not 0, the
// text then saying how many more there are.
func (d *Document) benchmarksTable(max int) *doc.Table {
	t := &doc.Table{Columns: append(append([]doc.Column{{Head: "benchmark"}, {Head: "project", Align: doc.Right}, {Head: "overall", Align: doc.Right}},
		d.impactColumns()...), doc.Column{Head: "in suite", Align: doc.Center})}
	for i, b := range d.Benchmarks {
		if max > 0 && i == max {
			t.Note(fmt.Sprintf("... and %d more", len(d.Benchmarks)-i))
			break
		}
		cells := append([]doc.Cell{doc.CodeCell(b.ID, d.thinMark(b.ID)...)}, doc.FigureCells(fmt.Sprint(b.ProjectNodes), fmt.Sprint(b.OverallNodes))...)
		cells = append(cells, d.impactFigures(b.AttributedImpactSeconds, b.AttributedImpactShare, b.ImpactSeconds, b.ImpactShare)...)
		t.Add(append(cells, doc.CheckCell(b.Selected))...)
	}
	return t
}

// thinTable is the benchmarks whose profiles are thin: their samples, CPU
// of wall time and the project functions they may hide (at most
// maxHidden named).
func (d *Document) thinTable() *doc.Table {
	t := &doc.Table{Layout: doc.NameLast, Columns: []doc.Column{{Head: "benchmark"}, {Head: "samples", Align: doc.Right},
		{Head: "CPU of wall", Align: doc.Right}, {Head: "may hide"}}}
	for _, b := range d.ThinBenchmarks {
		hidden := doc.PhraseCell("none")
		if n := len(b.Hidden); n > 0 {
			var items []doc.Item
			for _, h := range b.Hidden[:min(maxHidden, n)] {
				items = append(items, doc.Item{Name: h})
			}
			if more := n - len(items); more > 0 {
				items[len(items)-1].After = fmt.Sprintf("and %d more", more)
			}
			hidden = doc.PhraseCell(textutil.Plural(n, "project function")+": ", items...)
		}
		t.Add(doc.CodeCell(b.ID), doc.FigureCell(fmt.Sprint(b.Samples)), doc.FigureCell(b.cpuWall()), hidden)
	}
	return t
}

// ratioFigure is a ratio as "covered/total (share)", the one wording of a
// coverage ratio in every form.
func ratioFigure(r Ratio) string {
	return fmt.Sprintf("%d/%d (%s)", r.Covered, r.Total, render.Pct(r.Ratio))
}

// coverageTable is the application's coverage by the whole suite: the
// project functions and all functions, each covered of total and its
// share.
func (d *Document) coverageTable() *doc.Table {
	t := &doc.Table{Columns: []doc.Column{{Head: "coverage"}, {Head: "covered", Align: doc.Right}, {Head: "share", Align: doc.Right}}}
	for _, k := range []struct {
		name string
		r    Ratio
	}{{"project-only", d.Coverage.Project}, {"overall", d.Coverage.Overall}} {
		t.Add(doc.WordsCell(k.name), doc.FigureCell(fmt.Sprintf("%d/%d", k.r.Covered, k.r.Total)), doc.FigureCell(render.Pct(k.r.Ratio)))
	}
	return t
}

// scenariosTable is each scenario's weight, functions and coverage by the
// whole suite, and their union's.
func scenariosTable(sc *Scenarios) *doc.Table {
	t := &doc.Table{Columns: []doc.Column{{Head: "scenario"}, {Head: "weight", Align: doc.Right}, {Head: "functions", Align: doc.Right},
		{Head: "project", Align: doc.Right}, {Head: "project coverage", Align: doc.Right}, {Head: "overall coverage", Align: doc.Right}}}
	for i, e := range sc.Each {
		t.Add(append([]doc.Cell{doc.WordsCell(e.Name)}, doc.FigureCells(fmt.Sprintf("%g", sc.Weights[i]), fmt.Sprint(e.Nodes),
			fmt.Sprint(e.ProjectNodes), ratioFigure(e.Project), ratioFigure(e.Overall))...)...)
	}
	// The union has no weight: an empty cell, not a figure not known.
	t.Add(append([]doc.Cell{doc.WordsCell("union"), doc.WordsCell("")}, doc.FigureCells(fmt.Sprint(sc.Overall.Union),
		fmt.Sprint(sc.Project.Union), ratioFigure(sc.Union.Project), ratioFigure(sc.Union.Overall))...)...)
	return t
}

// An overlap is a table of the scenarios' pairwise overlaps and the note
// of the functions common to all.
type overlap struct {
	table  *doc.Table
	common doc.Note
}

// overlaps are the scenarios' pairwise overlaps, over all functions and
// over the project's: each cell counts the functions both scenarios call
// and, in brackets, their share of the row scenario's.
func overlaps(sc *Scenarios) []overlap {
	var out []overlap
	for _, k := range []struct {
		name string
		o    Overlap
	}{{"overall", sc.Overall}, {"project-only", sc.Project}} {
		t := &doc.Table{Columns: []doc.Column{{Head: k.name}}}
		for _, n := range sc.Names {
			t.Columns = append(t.Columns, doc.Column{Head: n, Align: doc.Right})
		}
		t.Columns = append(t.Columns, doc.Column{Head: "unique", Align: doc.Right})
		for i, n := range sc.Names {
			cells := []doc.Cell{doc.WordsCell(n)}
			for j := range sc.Names {
				if i == j {
					cells = append(cells, doc.FigureCell("same"))
					continue
				}
				cells = append(cells, doc.FigureCell(fmt.Sprintf("%d (%.2f%%)", k.o.Counts[i][j], 100*k.o.Shares[i][j])))
			}
			t.Add(append(cells, doc.FigureCell(fmt.Sprint(k.o.Unique[i])))...)
		}
		out = append(out, overlap{t, doc.Note{Label: "Common to all", Text: fmt.Sprintf("%d of %d functions", k.o.Common, k.o.Union), Fragment: true}})
	}
	return out
}
