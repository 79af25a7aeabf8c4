package trend

import (
	"fmt"
	"slices"

	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
	"github.com/mbopt/mbopt/report/plot"
)

// The history's tables, built once here and printed by package doc's
// printers: a value not known (no point, a value not stored) is an empty
// figure, which every printer writes as a dash.

// pointsTable is s's commits: short hash and subject, date, the
// baseline's and the head's values when any is stored, the change, its
// interval, the detectors' threshold and marks, and the verdict the
// comparison gave then.
func pointsTable(s Series) *doc.Table {
	values := slices.ContainsFunc(s.Points, func(p Point) bool { return p.BaseValue != 0 || p.HeadValue != 0 })
	t := &doc.Table{Columns: []doc.Column{{Head: "#", Align: doc.Right}, {Head: "commit"}, {Head: "date", Align: doc.Right}}}
	if values {
		t.Columns = append(t.Columns, doc.Column{Head: "base", Align: doc.Right}, doc.Column{Head: "head", Align: doc.Right})
	}
	t.Columns = append(t.Columns, doc.Column{Head: "change", Align: doc.Right}, doc.Column{Head: "ci", Align: doc.Right},
		doc.Column{Head: "threshold", Align: doc.Right}, doc.Column{Head: "marks", Align: doc.Right}, doc.Column{Head: "judged then", Align: doc.Right})
	marks := pointMarks(s)
	for i, p := range s.Points {
		commit := short(p.Head.Commit)
		if sub := textutil.FirstLine(p.Head.Subject); sub != "" {
			commit += " " + plot.MiddleEllipsis(sub, subjectRunes)
		}
		cells := []doc.Cell{doc.FigureCell(fmt.Sprint(i)), doc.WordsCell(commit), doc.FigureCell(date(p.Head.Time))}
		if values {
			cells = append(cells, doc.FigureCells(render.Value(p.BaseValue, s.Unit), render.Value(p.HeadValue, s.Unit))...)
		}
		cells = append(cells, doc.FigureCells(render.SignedPct(p.Change),
			fmt.Sprintf("[%s, %s]", render.SignedPct(p.CI.Low), render.SignedPct(p.CI.High)), render.Pct(p.DetectThreshold))...)
		t.Add(append(cells, doc.WordsCell(marks[i]), doc.WordsCell(judgedText(p)))...)
	}
	return t
}

// seriesTable is every series: its benchmark (and settings), unit,
// number of commits, the last commit with its value and change, and its
// definite and potential detections.
func seriesTable(d *Document) *doc.Table {
	t := &doc.Table{Columns: []doc.Column{{Head: "benchmark"}, {Head: "unit"}, {Head: "commits", Align: doc.Right}, {Head: "last commit"},
		{Head: "last value", Align: doc.Right}, {Head: "last change", Align: doc.Right}, {Head: "definite", Align: doc.Right}, {Head: "potential", Align: doc.Right}}}
	for _, s := range d.Series {
		def, pot := 0, 0
		for _, det := range s.Detections {
			if det.Definite {
				def++
			} else {
				pot++
			}
		}
		lastCommit, lastValue, last := doc.FigureCell(""), "", ""
		if n := len(s.Points); n > 0 {
			lp := s.Points[n-1]
			lastCommit = doc.PhraseCell("", doc.Item{Name: short(lp.Head.Commit), After: date(lp.Head.Time)})
			lastValue = render.Value(lp.HeadValue, s.Unit)
			last = render.SignedPct(lp.Change)
		}
		name := doc.Item{Name: s.ID}
		if s.Distinct != "" {
			name.After = "(" + s.Distinct + ")"
		}
		t.Add(doc.PhraseCell("", name), doc.WordsCell(s.Unit), doc.FigureCell(fmt.Sprint(len(s.Points))), lastCommit,
			doc.FigureCell(lastValue), doc.FigureCell(last), doc.FigureCell(fmt.Sprint(def)), doc.FigureCell(fmt.Sprint(pot)))
	}
	return t
}
