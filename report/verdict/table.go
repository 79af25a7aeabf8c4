package verdict

import (
	"fmt"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
)

// verdictMarks are the signs before a verdict in Markdown, so a reader
// sees regressions at a glance.
var verdictMarks = map[benchstats.Verdict]string{
	benchstats.DefiniteRegression:   "🔴",
	benchstats.PotentialRegression:  "🟠",
	benchstats.DefiniteImprovement:  "🟢",
	benchstats.PotentialImprovement: "🔵",
	benchstats.Unchanged:            "⚪",
}

// figureHeads are the verdict table's figure columns, those after the
// verdict: the change, its confidence interval and the instability, then
// the threshold and MDE when the report is judged, then the impact and the
// flat impact when impact is set.
func figureHeads(r *compare.Report, impact bool) []string {
	heads := []string{"change", fmt.Sprintf("%g%% CI", 100*r.Settings.Confidence), "instability"}
	if judged(r) {
		heads = append(heads, "threshold", "MDE")
	}
	if impact {
		heads = append(heads, "impact", "flat")
	}
	return heads
}

// figureCells are res's cells under figureHeads(r, impact), empty (a
// figure not known: a dash) under the impact columns of a result that has
// no impact.
func figureCells(r *compare.Report, res *compare.Result, impact bool) []string {
	cells := []string{render.SignedPct(res.Estimate.Change), ciText(res.Estimate.CI), ppText(res.Instability)}
	if judged(r) {
		cells = append(cells, resultThreshold(res), mdeText(res))
	}
	if impact {
		if res.Impact != nil {
			cells = append(cells, render.Pct(res.Impact.Attributed), render.Pct(res.Impact.Flat))
		} else {
			cells = append(cells, "", "")
		}
	}
	return cells
}

// resultsTable is a table of results, built once for every form: the
// verdict's sign (Markdown only) and words, the figures (figureHeads),
// the unit and the benchmark, named relative to r's module and marked
// when the change did not touch it (package compare's Untouched).
func resultsTable(r *compare.Report, results []compare.Result, impact bool) *doc.Table {
	t := &doc.Table{Layout: doc.NameLast, Columns: []doc.Column{{Head: "", Detail: true}, {Head: "verdict"}}}
	for _, h := range figureHeads(r, impact) {
		t.Columns = append(t.Columns, doc.Column{Head: h, Align: doc.Right})
	}
	t.Columns = append(t.Columns, doc.Column{Head: "unit"}, doc.Column{Head: "benchmark"})
	for i := range results {
		res := &results[i]
		var marks []doc.Mark
		if noisy(res) {
			marks = append(marks, doc.Mark{Text: untouchedMark})
		}
		cells := append([]doc.Cell{doc.WordsCell(verdictMarks[res.Verdict]), doc.WordsCell(resultVerdict(res))}, doc.FigureCells(figureCells(r, res, impact)...)...)
		t.Add(append(cells, doc.WordsCell(res.Unit), doc.CodeCell(displayName(r.Module, res), marks...))...)
	}
	return t
}

// otherTable is the results that were not compared: why in brief (the
// status), the benchmark (with its unit when only one unit's estimate
// failed) and the reason when one is known, which the text prints under
// the row.
func otherTable(other []compare.Result, name func(*compare.Result) string) *doc.Table {
	t := &doc.Table{Layout: doc.NameLast, Columns: []doc.Column{{Head: "status"}, {Head: "benchmark"}, {Head: "reason", Detail: true}}}
	for i := range other {
		res := &other[i]
		bench := doc.CodeCell(name(res))
		if res.Unit != "" && res.Status == compare.Compared {
			// An estimate that failed is about one unit.
			bench = doc.PhraseCell("", doc.Item{Name: name(res), After: "(" + res.Unit + ")"})
		}
		// No reason known is a dash, a figure not known.
		reason := doc.FigureCell("")
		why := otherReason(res)
		if why != "" {
			reason = doc.CodeCell(why)
		}
		t.Add(doc.WordsCell(otherStatus(res)), bench, reason)
		if why != "" {
			t.Note("    " + why)
		}
	}
	return t
}

// culpritTable is res's top n culprit functions, per operation: base,
// head, change and share of the movement, and with the application's
// profile whether the application runs each (a mark when it ran for less
// than a sample); a mark names what a function's change was folded into,
// and the project functions under which the application impact weighed a
// function outside the project (its calling context).
func culpritTable(res *compare.Result, n int) *doc.Table {
	app := res.AppImpact != nil
	t := &doc.Table{Columns: []doc.Column{{Head: "function"}, {Head: "base", Align: doc.Right}, {Head: "head", Align: doc.Right},
		{Head: "change", Align: doc.Right}, {Head: "share", Align: doc.Right}}}
	if app {
		t.Columns = append(t.Columns, doc.Column{Head: "in the application", Align: doc.Center})
	}
	for _, c := range res.Culprits[:min(n, len(res.Culprits))] {
		var marks []doc.Mark
		if app && c.InApp && c.AppFloor {
			marks = append(marks, doc.Mark{Class: "floor", Text: "ran in the application for less than a sample"})
		}
		if len(c.FoldedInto) > 0 {
			marks = append(marks, doc.Mark{Class: "folded", Text: "folded into", Names: c.FoldedInto})
		}
		if app && len(c.AppContext) > 0 {
			marks = append(marks, doc.Mark{Class: "context", Text: "weighed in the application under", Names: c.AppContext})
		}
		cells := []doc.Cell{doc.CodeCell(c.Function, marks...), doc.FigureCell(culpritValue(res, c.Base, false)),
			doc.FigureCell(culpritValue(res, c.Head, false)), doc.FigureCell(culpritChange(res, c)), doc.FigureCell(render.Pct(c.Share))}
		if app {
			cells = append(cells, doc.CheckCell(c.InApp))
		}
		t.Add(cells...)
	}
	return t
}

// whereTable is the explained results rs, in their order: with the
// application's profile each one's estimated application impact ("likely
// none" where the change is outside the application's functions), its
// interval and the share of the movement in the application's functions;
// then its change, unit and benchmark, and its top culprit with its share
// of the movement.
func whereTable(rs []*compare.Result, name func(*compare.Result) string) *doc.Table {
	app := false
	for _, res := range rs {
		app = app || res.AppImpact != nil
	}
	t := &doc.Table{Columns: []doc.Column{{Head: "#", Align: doc.Right}}}
	if app {
		t.Columns = append(t.Columns, doc.Column{Head: "application impact", Align: doc.Right}, doc.Column{Head: "interval", Align: doc.Right},
			doc.Column{Head: "in the application", Align: doc.Right})
	}
	t.Columns = append(t.Columns, doc.Column{Head: "change", Align: doc.Right}, doc.Column{Head: "unit"}, doc.Column{Head: "benchmark"},
		doc.Column{Head: "top culprit"}, doc.Column{Head: "share", Align: doc.Right})
	for i, res := range rs {
		cells := []doc.Cell{doc.FigureCell(fmt.Sprint(i + 1))}
		switch a := res.AppImpact; {
		case !app:
		case a == nil:
			cells = append(cells, doc.FigureCells("", "", "")...)
		default:
			impact := render.SignedPct(a.Estimate)
			if a.NoImpact {
				impact = "likely none"
			}
			cells = append(cells, doc.FigureCells(impact, render.SignedPct(a.Low)+" … "+render.SignedPct(a.High), render.Pct(a.RelevantShare))...)
		}
		cells = append(cells, doc.FigureCell(render.SignedPct(res.Estimate.Change)), doc.WordsCell(res.Unit), doc.CodeCell(name(res)))
		if len(res.Culprits) == 0 {
			cells = append(cells, doc.WordsCell("none beyond noise"), doc.FigureCell(""))
		} else {
			c := res.Culprits[0]
			cells = append(cells, doc.CodeCell(c.Function), doc.FigureCell(render.Pct(c.Share)))
		}
		t.Add(cells...)
	}
	return t
}
