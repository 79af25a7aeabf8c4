package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
)

// MarkdownOptions configures [WriteMarkdown].
type MarkdownOptions struct {
	// Images maps figure names (see [Figures]) to the image path the
	// Markdown links; figures without an entry are left out.
	Images map[string]string
	// Summary writes a short form for a CI step summary: coverage, the
	// suite and the certificate up front, long tables folded in
	// <details>.
	Summary bool
	// Suite, when not empty, is shown as a code block: the commands that
	// run the selected suite.
	Suite string
}

// WriteMarkdown writes d as GitHub-flavoured Markdown: a summary, the
// figures, the minimal suite, the optimality certificate, the
// recommendations, the scenarios (Table 6.4) and every benchmark.
func WriteMarkdown(w io.Writer, d *Document, opts MarkdownOptions) error {
	ew := &render.ErrWriter{W: w}
	p := func(format string, a ...any) { fmt.Fprintf(ew, format, a...) }
	fold := func(summary string) func() {
		if !opts.Summary {
			return func() {}
		}
		p("<details><summary>%s</summary>\n\n", summary)
		return func() { p("</details>\n\n") }
	}

	writeCoverageMarkdown(p, d)
	doc.Markdown(ew).Note(d.scopeNote())
	doc.Markdown(ew).Table(d.coverageTable())
	p("\n")
	writeSuiteHeading(p, d)
	if opts.Suite != "" {
		p("The suite (`go test` commands when a collection manifest names each benchmark's package, else benchmark ids):\n\n```sh\n%s\n```\n\n", strings.TrimRight(opts.Suite, "\n"))
	}
	printNotes(doc.Markdown(ew), d.suiteNotes())

	for _, f := range Figures(d) {
		if img, ok := opts.Images[f.Name]; ok {
			p("![%s](%s)\n\n*%s*\n\n", f.Title, img, f.Caption)
		}
	}

	writePicksMarkdown(ew, p, d, fold)
	writeRecommendationsMarkdown(ew, p, d, fold)
	writeSensitivityMarkdown(ew, p, d, fold)
	writeThinMarkdown(ew, p, d)
	if sc := d.Scenarios; sc != nil {
		writeScenarios(ew, sc)
	}
	writeBenchmarksMarkdown(ew, p, d, fold)
	if len(d.Skipped) > 0 {
		p("## Skipped benchmark profiles\n\n")
		for _, s := range d.Skipped {
			p("- %s: %s\n", render.MarkdownCode(s.File), render.EscapeMarkdown(s.Reason))
		}
		p("\n")
	}
	if len(d.Warnings) > 0 {
		p("## Warnings\n\n")
		for _, w := range d.Warnings {
			p("- %s\n", render.EscapeMarkdown(w))
		}
		p("\n")
	}
	return ew.Err
}

// writeCoverageMarkdown writes the report's title and summary: the
// application, the benchmarks and the suite's coverage.
func writeCoverageMarkdown(p func(string, ...any), d *Document) {
	p("# mbopt: microbenchmark suite relevance for %s\n\n", render.MarkdownCode(strings.Join(d.Modules, ", ")))
	total := d.weight(d.Application.TotalSeconds)
	if d.Application.Unit == "" {
		total += " of CPU"
	}
	p("The application (%s) calls **%d functions, %d in the project**, using %s", textutil.Plural(len(d.Application.Profiles), "profile"), d.Application.Nodes, d.Application.ProjectNodes, total)
	if d.attributed() {
		p(" (%s, %s, with no project function on the stack)", d.weight(d.Application.OutsideProjectSeconds), render.Pct(d.Application.OutsideProjectShare))
	}
	p(". ")
	p("The %d analysed %s", len(d.Benchmarks), textutil.Noun(len(d.Benchmarks), "benchmark"))
	if len(d.Skipped) > 0 {
		p(" (%d more skipped)", len(d.Skipped))
	}
	cover := "cover"
	if len(d.Benchmarks) == 1 {
		cover = "covers"
	}
	p(" %s **%s of the project functions** and %s of all functions.\n\n", cover, render.Pct(d.Coverage.Project.Ratio), render.Pct(d.Coverage.Overall.Ratio))
}

// writePicksMarkdown writes the minimal suite pick by pick, a table with
// its legend (folded by fold in a summary), when the suite has a pick.
func writePicksMarkdown(w io.Writer, p func(string, ...any), d *Document, fold func(string) func()) {
	if len(d.MinimalSuite) == 0 {
		return
	}
	end := fold("Suite, pick by pick")
	marginal := slices.ContainsFunc(d.MinimalSuite, func(s Pick) bool { return s.Marginal })
	doc.Markdown(w).Table(d.picksTable(false))
	if d.attributed() {
		p("\n*added*: %s nodes the pick newly covers; *project*, *overall*: cumulative coverage after the pick; *attributed*: the benchmark's attributed impact (application %s charged to the project functions it covers, each sample to the innermost project function on its stack); *flat*: the paper's reference impact (application flat time in all the functions it covers).\n\n", d.Criterion, d.appMeasure("CPU time"))
	} else {
		p("\n*added*: %s nodes the pick newly covers; *project*, *overall*: cumulative coverage after the pick; *impact*: the benchmark's reference impact (application %s in the functions it covers).\n\n", d.Criterion, d.appMeasure("CPU time"))
	}
	if marginal {
		p("*marginal*: the functions the pick adds take under 1%% of the application's %s time; it keeps the suite's coverage, but whether it is worth running is your call.\n\n", d.Impact)
	}
	end()
}

// writeRecommendationsMarkdown writes the recommended benchmark targets
// (Algorithm 3): why fewer came out than were asked for, then a table
// with its legend (folded by fold in a summary) when there are any.
func writeRecommendationsMarkdown(w io.Writer, p func(string, ...any), d *Document, fold func(string) func()) {
	s := d.RecommendationShortfall
	if len(d.Recommendations) == 0 && s == nil {
		return
	}
	p("## Recommended benchmark targets (Algorithm 3)\n\n")
	if s != nil {
		// Before the fold: why the list is short is the first thing to read.
		p("%s\n\n", render.EscapeMarkdown(s.Why))
	}
	if len(d.Recommendations) == 0 {
		return
	}
	end := fold(textutil.Plural(len(d.Recommendations), "function") + " that would add the most coverage")
	details := d.RecommendationTargets != ""
	negligible := slices.ContainsFunc(d.Recommendations, func(r Recommendation) bool { return r.Negligible != nil })
	unseen := slices.ContainsFunc(d.Recommendations, func(r Recommendation) bool { return len(r.MaybeCoveredBy) > 0 })
	doc.Markdown(w).Table(d.recommendationsTable(false))
	p("\n")
	if details {
		p("Functions a benchmark can call (closures folded into the function that returns or starts them). *where*: the declaration; *test*: an external test package (`x_test`) can call it, else an internal test (`package x`); *called by*: the application's direct callers, by cumulative time; *hottest beneath*: the project functions its benchmark would newly cover, by flat time.\n\n")
	}
	if negligible {
		p("*negligible*: under 0.2%% of the application's time and small (inlined into covered callers, or at most 5 lines): a benchmark of it would measure little.")
		if d.NegligibleLast {
			p(" Negligible functions are ranked after all others.")
		}
		p("\n\n")
	}
	if unseen {
		p("*may have run unseen*: a thin benchmark profile (see below) may have run the function without a sample.\n\n")
	}
	end()
}

// writeBenchmarksMarkdown writes every benchmark by impact, a table folded
// by fold in a summary.
func writeBenchmarksMarkdown(w io.Writer, p func(string, ...any), d *Document, fold func(string) func()) {
	p("## Benchmarks by %s\n\n", d.impactName())
	end := fold(fmt.Sprintf("All %s", textutil.Plural(len(d.Benchmarks), "benchmark")))
	doc.Markdown(w).Table(d.benchmarksTable(0))
	p("\n")
	end()
}

func writeSuiteHeading(p func(string, ...any), d *Document) {
	n := len(d.MinimalSuite)
	if sel := d.Selection; sel != nil {
		p("## Selected suite: %d of %s\n\n", n, textutil.Plural(len(d.Benchmarks), "benchmark"))
		p("Objective **%s**", sel.Objective)
		if sel.Weighted {
			p(" (weighted by scenario)")
		}
		switch {
		case sel.BudgetSeconds > 0:
			p(", budget %s: the picks cost %s", secs(sel.BudgetSeconds), secs(sel.TotalCostSeconds))
		case sel.Objective == "cost":
			p(": the cheapest suite found with Algorithm 2's coverage, %s", secs(sel.TotalCostSeconds))
		case sel.Caught != nil:
			p(": the functions whose +%s slowdown some pick would report, weighed by application share", render.Pct(sel.Caught.Slowdown))
		}
		p("; stopped: %s.", stopText(sel.Stop, sel.Caught != nil))
		switch {
		case sel.Safeguard && sel.Objective == "cost":
			p(" Algorithm 2's suite, with its redundant picks removed, costs less (%s) than the cost-weighted greedy's (%s), so it is returned; this safeguard keeps the suite never costlier than Algorithm 2's.", secs(sel.TotalCostSeconds), secs(sel.GreedyCostSeconds))
		case sel.Safeguard:
			p(" The single best benchmark within the budget gains more (%.4g) than the cost-effectiveness greedy did (%.4g), so it is returned alone; this safeguard keeps the (1 − 1/e)/2 guarantee.", sel.TotalGain, sel.GreedyGain)
		}
		p("\n\n")
		if n > 0 {
			last := d.MinimalSuite[n-1]
			p("The selection covers %s of the project functions and %s of all functions.\n\n", render.Pct(last.CumulativeProjectRatio), render.Pct(last.CumulativeOverallRatio))
		}
		return
	}
	p("## Minimal suite (Algorithm 2): %d of %s\n\n", n, textutil.Plural(len(d.Benchmarks), "benchmark"))
	if n == 0 {
		p("No benchmark covers any %s node of the application.\n\n", d.Criterion)
		return
	}
	if n == 1 {
		p("This benchmark keeps the whole suite's coverage of the %s functions.\n\n", d.Criterion)
		return
	}
	p("These %d benchmarks keep the whole suite's coverage of the %s functions.\n\n", n, d.Criterion)
}

func stopText(s string, caught bool) string {
	switch {
	case caught && s == "complete":
		return "no benchmark catches more"
	case caught && s == "budget":
		return "no remaining benchmark that catches more fits the budget"
	}
	switch s {
	case "complete":
		return "no benchmark adds coverage any more"
	case "top":
		return "the --top limit was reached"
	case "min-gain":
		return "the next pick would add fewer nodes than --min-gain"
	case "budget":
		return "no remaining benchmark that adds coverage fits the budget"
	}
	return s
}

func writeScenarios(w io.Writer, sc *Scenarios) {
	fmt.Fprintf(w, "## Scenarios\n\n")
	p := doc.Markdown(w)
	p.Table(scenariosTable(sc))
	fmt.Fprintf(w, "\nPair-wise overlap (the dissertation's Table 6.4): each cell counts the functions both scenarios call and, in brackets, their share of the **row** scenario's functions.\n\n")
	for _, o := range overlaps(sc) {
		p.Table(o.table)
		fmt.Fprintln(w)
		p.Note(o.common)
	}
}
