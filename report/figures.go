package report

import (
	"fmt"

	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/plot"
)

// Figures returns the report's figures for d, in display order:
//
//   - "suite-coverage": cumulative project-only and overall coverage (and
//     covered application CPU time, of [Document.Impact]) after each pick
//     of the minimal suite,
//     the dissertation's Figure 6.6; with scenarios, one project-only line
//     per scenario as well;
//   - "recommend-coverage": cumulative coverage after each recommended
//     function, starting from the whole suite's coverage (Figure 6.7),
//     when there are recommendations;
//   - "suite-impact": each selected benchmark's impact (attributed or
//     reference impact, as [Document.Impact] says), as a share of the
//     application's CPU time, in pick order.
//
// Labels and captions speak of the application's CPU time, or of its
// unit under Application.Unit ("application instructions covered").
// Percentages are 0–100. Benchmark ids are labelled by the rules of
// [plot.IDLabels], so real import paths leave room for the data.
func Figures(d *Document) []plot.Figure {
	var figs []plot.Figure
	n := len(d.MinimalSuite)
	x := make([]float64, n+1)
	for i := range x {
		x[i] = float64(i)
	}
	proj, over, imp := []float64{0}, []float64{0}, []float64{0}
	for _, p := range d.MinimalSuite {
		proj = append(proj, 100*p.CumulativeProjectRatio)
		over = append(over, 100*p.CumulativeOverallRatio)
		share := 0.0
		if d.Application.TotalSeconds > 0 {
			share = 100 * d.cumulativeImpact(p) / d.Application.TotalSeconds
		}
		imp = append(imp, share)
	}
	suite := plot.Figure{
		Name:    "suite-coverage",
		Title:   "Coverage of the application by the minimal suite",
		Caption: fmt.Sprintf("Cumulative coverage after each of the %s (%s criterion), as in the dissertation's Figure 6.6: the first picks matter most; the last point is the whole suite's coverage.", textutil.Plural(n, "pick"), d.Criterion),
		XLabel:  "benchmarks in the suite",
		YLabel:  "coverage (%)",
		Lines: []plot.Series{
			{Label: "project-only", X: x, Y: proj},
			{Label: "overall", X: x, Y: over},
			{Label: d.impactLabel("application " + d.appMeasure("CPU time")), X: x, Y: imp},
		},
	}
	if sc := d.Scenarios; sc != nil {
		for i, name := range sc.Names {
			y := append([]float64{0}, scale100(sc.SuiteProject[i])...)
			suite.Lines = append(suite.Lines, plot.Series{Label: "project-only: " + name, X: x, Y: y})
		}
	}
	figs = append(figs, suite)

	if len(d.Recommendations) > 0 {
		m := len(d.Recommendations)
		rx := make([]float64, m+1)
		for i := range rx {
			rx[i] = float64(i)
		}
		rp := []float64{100 * d.Coverage.Project.Ratio}
		ro := []float64{100 * d.Coverage.Overall.Ratio}
		for _, r := range d.Recommendations {
			rp = append(rp, 100*r.CumulativeProjectRatio)
			ro = append(ro, 100*r.CumulativeOverallRatio)
		}
		figs = append(figs, plot.Figure{
			Name:    "recommend-coverage",
			Title:   "Coverage if the recommended functions were benchmarked",
			Caption: fmt.Sprintf("Cumulative coverage after adding a benchmark for each of the %d recommended %s (Algorithm 3), starting from the whole suite's coverage at 0, as in the dissertation's Figure 6.7.", m, textutil.Noun(m, "function")),
			XLabel:  "recommended functions",
			YLabel:  "coverage (%)",
			Lines:   []plot.Series{{Label: "project-only", X: rx, Y: rp}, {Label: "overall", X: rx, Y: ro}},
		})
	}

	if n > 0 {
		b := &plot.Bars{}
		for _, p := range d.MinimalSuite {
			b.IDs = append(b.IDs, p.ID)
			b.Values = append(b.Values, 100*d.impactShare(p))
		}
		title, caption := "Reference impact of the selected benchmarks", "Share of the application's "+d.appMeasure("CPU time")+" spent in the functions each selected benchmark covers (its reference impact), in pick order; bars are numbered as in the suite table. Shares overlap, so they need not sum to 100%."
		if d.attributed() {
			title, caption = "Attributed impact of the selected benchmarks", "Share of the application's "+d.appMeasure("CPU time")+" charged to the project functions each selected benchmark covers (its attributed impact: each sample goes to the innermost project function on its stack), in pick order; bars are numbered as in the suite table. Benchmarks that cover the same project functions share their time, so the shares may overlap; benchmarks with disjoint coverage never add up past 100%."
		}
		var prefix string
		b.Labels, prefix = plot.IDLabels(b.IDs)
		f := plot.Figure{
			Name:    "suite-impact",
			Title:   title,
			Caption: caption,
			XLabel:  d.impactLabel("application "+d.appMeasure("CPU time")+" covered") + " (%)",
			Bars:    b,
		}
		if prefix != "" {
			f.Note = "benchmark ids relative to " + plot.MiddleEllipsis(prefix, plot.NoteRunes)
			f.Caption += " Benchmark ids are shown relative to " + prefix + "; in long ones, … marks what is left out (the tables give them whole)."
		}
		figs = append(figs, f)
	}
	if s := d.Sensitivity; s != nil && len(s.Caught) > 0 {
		figs = append(figs, d.caughtFigure(s))
	}
	return figs
}

func scale100(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = 100 * x
	}
	return out
}
