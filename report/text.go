package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
)

// WriteJSON writes d as indented JSON followed by a newline.
func WriteJSON(w io.Writer, d *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// TextOptions configures [WriteText].
type TextOptions struct {
	// Explain lists, under each pick and recommendation, the application
	// functions it adds with their flat time: with callable targets
	// (Document.RecommendationTargets) the project functions first, then
	// one line per external package with its total; with the paper's
	// targets every function, by time.
	Explain bool
	// MaxBenchmarks bounds the benchmark table; 0 means all.
	MaxBenchmarks int
}

func secs(s float64) string { return fmt.Sprintf("%.2fs", s) }

// weight formats v, an amount of the application's weight: seconds,
// "5.17s", for CPU profiles; else v in the profile's unit
// (Application.Unit), to three significant digits with an SI prefix from
// k up: "25.7k instructions", "770k instructions", "12 instructions".
func (d *Document) weight(v float64) string {
	unit := d.Application.Unit
	if unit == "" {
		return secs(v)
	}
	for _, p := range []struct {
		scale  float64
		prefix string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if math.Abs(v) >= p.scale {
			return strconv.FormatFloat(v/p.scale, 'g', 3, 64) + p.prefix + " " + unit
		}
	}
	return fmt.Sprintf("%.0f %s", v, unit)
}

// appMeasure is [render.AppMeasure] of d's application: what every line
// about the application's time (the detectable slowdowns' "caught in
// functions that take 23.2% of the application's CPU", the caught
// curve's axis) calls it, as [Document.weight] writes its amounts.
func (d *Document) appMeasure(cpu string) string { return render.AppMeasure(d.Application.Unit, cpu) }

// appTotal words the application's total weight: "11.66s CPU", or in
// its unit, "25.7k instructions".
func (d *Document) appTotal() string {
	if d.Application.Unit == "" {
		return secs(d.Application.TotalSeconds) + " CPU"
	}
	return d.weight(d.Application.TotalSeconds)
}

// attributed reports whether d ranks by attributed impact; then the
// renderers show it first and the paper's flat impact next to it. With
// "flat" they print exactly the paper's columns.
func (d *Document) attributed() bool { return d.Impact == "attributed" }

// WriteText writes a report for people: coverage (with two or more
// scenarios, each scenario's and their pairwise overlap), the minimal suite
// in pick order, the benchmarks by reference impact, and the
// recommendations.
func WriteText(w io.Writer, d *Document, opts TextOptions) error {
	ew := &render.ErrWriter{W: w}
	p := func(format string, a ...any) { fmt.Fprintf(ew, format, a...) }

	p("mbopt: microbenchmark suite relevance for %s\n\n", strings.Join(d.Modules, ", "))
	p("Application  %s, %d functions (%d project), %s", textutil.Plural(len(d.Application.Profiles), "profile"), d.Application.Nodes, d.Application.ProjectNodes, d.appTotal())
	if d.attributed() {
		p(", %s (%s) outside project code", d.weight(d.Application.OutsideProjectSeconds), render.Pct(d.Application.OutsideProjectShare))
	}
	p("\n")
	p("Benchmarks   %d analysed", len(d.Benchmarks))
	if len(d.Skipped) > 0 {
		p(", %d skipped", len(d.Skipped))
	}
	p("\n")
	doc.Text(ew).Note(d.scopeNote())
	p("\nCoverage of the application by the whole suite\n")
	doc.Text(ew).Table(d.coverageTable())
	if d.Scenarios != nil {
		writeScenariosText(ew, d.Scenarios)
	}

	writeSuiteText(ew, d, opts)
	writeBenchmarksText(ew, d, opts)
	writeThinText(ew, d)
	writeRecommendationsText(ew, d, opts)
	writeSensitivityText(ew, d)
	if len(d.Skipped) > 0 {
		p("\nSkipped benchmark profiles\n")
		for _, s := range d.Skipped {
			p("  %s: %s\n", s.File, s.Reason)
		}
	}
	if len(d.Warnings) > 0 {
		p("\nWarnings\n")
		for _, w := range d.Warnings {
			p("  %s\n", w)
		}
	}
	return ew.Err
}

// writeSuiteText writes the selected or minimal suite: its heading, the
// picks in order (with notes on marginal picks, and with opts.Explain the
// functions each adds) and the certificates.
func writeSuiteText(w io.Writer, d *Document, opts TextOptions) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	if sel := d.Selection; sel != nil {
		p("\nSelected suite (objective %s, %s nodes", sel.Objective, d.Criterion)
		switch {
		case sel.BudgetSeconds > 0:
			p(", budget %s, cost %s", secs(sel.BudgetSeconds), secs(sel.TotalCostSeconds))
		case sel.Objective == "cost":
			p(", cost %s", secs(sel.TotalCostSeconds))
		case sel.Caught != nil:
			p(", what a +%s slowdown would be caught in", render.Pct(sel.Caught.Slowdown))
		}
		p("): %d of %s, stopped: %s", len(d.MinimalSuite), textutil.Plural(len(d.Benchmarks), "benchmark"), sel.Stop)
		switch {
		case sel.Safeguard && sel.Objective == "cost":
			p(" (Algorithm 2's suite, redundant picks removed, was cheaper than the cost-weighted greedy's)")
		case sel.Safeguard:
			p(" (the single best benchmark within the budget beat the greedy's picks)")
		}
		p("\n")
	} else {
		keep := "keep"
		if len(d.MinimalSuite) == 1 {
			keep = "keeps"
		}
		p("\nMinimal suite (Algorithm 2, %s nodes): %d of %s %s the same coverage\n", d.Criterion, len(d.MinimalSuite), textutil.Plural(len(d.Benchmarks), "benchmark"), keep)
	}
	if len(d.MinimalSuite) == 0 {
		p("  no benchmark covers any %s node of the application\n", d.Criterion)
	} else {
		doc.Text(w).Table(d.picksTable(opts.Explain))
		if d.attributed() {
			p("  (project and overall: cumulative coverage after each pick; attributed: the benchmark's attributed impact,\n")
			p("   the application time charged to the project functions it covers; flat: the paper's reference impact)\n")
		} else {
			p("  (project and overall: cumulative coverage after each pick; impact: the benchmark's reference impact)\n")
		}
	}
	printNotes(doc.Text(w), d.suiteNotes())
}

// writeBenchmarksText writes the benchmarks by impact, at most
// opts.MaxBenchmarks of them when it is not 0.
func writeBenchmarksText(w io.Writer, d *Document, opts TextOptions) {
	fmt.Fprintf(w, "\nBenchmarks by %s\n", d.impactName())
	doc.Text(w).Table(d.benchmarksTable(opts.MaxBenchmarks))
}

// writeRecommendationsText writes the recommended benchmark targets
// (Algorithm 3) with their details and rules, and with opts.Explain the
// functions each adds, then why fewer came out than were asked for;
// nothing when there are none and no shortfall.
func writeRecommendationsText(w io.Writer, d *Document, opts TextOptions) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	if len(d.Recommendations) == 0 {
		if s := d.RecommendationShortfall; s != nil {
			p("\nRecommended benchmark targets (Algorithm 3)\n  %s\n", s.Why)
		}
		return
	}
	switch {
	case d.RecommendationTargets == "":
		p("\nRecommended benchmark targets (Algorithm 3)\n")
	case d.NegligibleLast:
		p("\nRecommended benchmark targets (Algorithm 3, %s functions, negligible ones last)\n", d.RecommendationTargets)
	default:
		p("\nRecommended benchmark targets (Algorithm 3, %s functions)\n", d.RecommendationTargets)
	}
	doc.Text(w).Table(d.recommendationsTable(opts.Explain))
	if s := d.RecommendationShortfall; s != nil {
		p("  %s\n", s.Why)
	}
}

// writeScenariosText writes the scenario table and the pairwise
// overlaps.
func writeScenariosText(w io.Writer, sc *Scenarios) {
	fmt.Fprintf(w, "\nCoverage of each scenario by the whole suite\n")
	p := doc.Text(w)
	p.Table(scenariosTable(sc))
	fmt.Fprintf(w, "\nPair-wise overlap between scenarios (functions both call; in brackets, their share of the row scenario's)\n")
	for i, o := range overlaps(sc) {
		if i > 0 {
			fmt.Fprintln(w)
		}
		p.Table(o.table)
		p.Note(o.common)
	}
}

// impactShare returns the share of the pick's own impact that d shows
// first.
func (d *Document) impactShare(p Pick) float64 {
	if d.attributed() {
		return p.AttributedImpactShare
	}
	return p.ImpactShare
}

// cumulativeImpact returns the impact of every pick up to p, of the kind d
// shows first.
func (d *Document) cumulativeImpact(p Pick) float64 {
	if d.attributed() {
		return p.CumulativeAttributedImpact
	}
	return p.CumulativeImpact
}

// impactLabel returns label, marked "(attributed)" when d shows the
// attributed impact.
func (d *Document) impactLabel(label string) string {
	if d.attributed() {
		return label + " (attributed)"
	}
	return label
}

// impactName names the impact that orders the benchmarks.
func (d *Document) impactName() string {
	if d.attributed() {
		return "attributed impact"
	}
	return "reference impact"
}

// impactHeads returns the impact column heads of the text tables: the
// attributed impact then the paper's flat one, or only the paper's.
func (d *Document) impactHeads() []string {
	if d.attributed() {
		return []string{"attributed", "share", "flat", "share"}
	}
	return []string{"impact", "share"}
}

// impactCells returns the cells under [Document.impactHeads].
func (d *Document) impactCells(attributed, attributedShare, flat, flatShare float64) []string {
	if d.attributed() {
		return []string{d.weight(attributed), render.Pct(attributedShare), d.weight(flat), render.Pct(flatShare)}
	}
	return []string{d.weight(flat), render.Pct(flatShare)}
}

// explainLines returns the --explain lines of fs: with callable targets
// folded ([Document.explainFolded]), with the paper's every function
// ([Document.explain]).
func (d *Document) explainLines(fs []Function) []string {
	if d.RecommendationTargets != "" {
		return d.explainFolded(fs)
	}
	return d.explain(fs)
}

// explain returns the --explain lines of fs: each function's flat time,
// kind and name, and with the attributed impact a project function's
// attributed time after its name.
func (d *Document) explain(fs []Function) []string {
	var lines []string
	for _, f := range fs {
		kind := "external"
		if f.Project {
			kind = "project "
		}
		line := fmt.Sprintf("      %s  %s  %s", d.weight(f.FlatSeconds), kind, f.Function)
		if f.Project && d.attributed() {
			line += fmt.Sprintf("  (attributed %s)", d.weight(f.AttributedSeconds))
		}
		lines = append(lines, line)
	}
	return lines
}
