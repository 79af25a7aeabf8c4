package verdict

import (
	"fmt"
	"io"
	"strings"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
)

// mdRevision describes a revision in Markdown: short commit as code, the
// spec, a dirty mark and the subject.
func mdRevision(rev compare.Revision) string {
	var b strings.Builder
	if rev.Commit != "" {
		b.WriteString(render.MarkdownCode(rev.Commit[:min(12, len(rev.Commit))]))
		if rev.Dirty {
			b.WriteString(" **+ uncommitted changes**")
		}
		b.WriteString(" ")
	}
	fmt.Fprintf(&b, "(%s)", render.EscapeMarkdown(rev.Spec))
	if rev.Subject != "" {
		fmt.Fprintf(&b, " “%s”", render.EscapeMarkdown(rev.Subject))
	}
	return b.String()
}

// WriteMarkdown writes r as GitHub-flavoured Markdown for a pull
// request comment: a heading naming the module and the metric
// ([measure.Metric.PerOperation]), the headline in bold (the leading detection
// and its share of the application's CPU time or instructions, as in [WriteText]) with
// the tally and the two revisions; a table of the detections; when
// results have culprit functions, a table of them by estimated
// application impact (the report's order without one; "likely none" for
// a change outside the application's functions) and, for each, its top
// MarkdownCulprits culprits in a collapsed <details> block with the go
// tool pprof command that reproduces the diff; the unchanged results
// folded in a <details> block; the results that could
// not be compared; and a footnote with the settings, raw files and notes.
// Benchmarks are named relative to the module, as code. Results keep r's
// order within each table. It returns the first write error.
func WriteMarkdown(w io.Writer, r *compare.Report) error {
	ew := &render.ErrWriter{W: w}
	p := func(format string, a ...any) { fmt.Fprintf(ew, format, a...) }
	name := func(res *compare.Result) string { return displayName(r.Module, res) }

	p("## mbopt compare: %s, %s\n\n", render.MarkdownCode(r.Module), r.Settings.Metric.PerOperation())
	p("**%s**\n\n", headline(r, func(res *compare.Result) string { return render.MarkdownCode(name(res)) }))
	if a := appSummary(r, func(res *compare.Result) string { return render.MarkdownCode(name(res)) }, render.MarkdownCode); a != "" {
		p("**%s**\n\n", a)
	}
	if t := tally(r); t != "" {
		p("In all: %s.\n", t)
	}
	p("Base %s, head %s.\n\n", mdRevision(r.Base), mdRevision(r.Head))

	detected, unchanged, other := groups(r)
	im := firstImpact(r)
	impact := im != nil
	writeTable := func(results []compare.Result) {
		doc.Markdown(ew).Table(resultsTable(r, results, impact))
		p("\n")
	}
	band := "±" + thresholdText(r.Settings.Threshold)
	if judged(r) {
		band = "their thresholds"
	}
	if len(detected) > 0 {
		p("### Changes beyond %s\n\n", band)
		writeTable(detected)
	}
	writeMarkdownCulprits(ew, r, name)
	if len(unchanged) > 0 {
		p("<details><summary>%s within %s</summary>\n\n", textutil.Plural(len(unchanged), "unchanged result"), band)
		writeTable(unchanged)
		p("</details>\n\n")
	}
	if len(other) > 0 {
		p("### Not compared\n\n")
		doc.Markdown(ew).Table(otherTable(other, name))
		p("\n")
	}

	if cs := caveatLines(r, func(res *compare.Result) string { return render.MarkdownCode(name(res)) }); len(cs) > 0 {
		p("### Caveats\n\n")
		for _, c := range cs {
			p("- %s\n", c)
		}
		p("\n")
	}
	p("---\n\n<sub>")
	if impact {
		p("*impact*: the share of the application's %s attributed to the functions a benchmark covers; *flat*: the share of their flat time (the paper's reference impact); ", appMeasure(im))
	}
	p("*instability*: the interval's width in percentage points. ")
	if l := untouchedLegend(r); l != "" {
		p("*%s*. ", render.EscapeMarkdown(l))
	}
	lines := settingsLines(r)
	if judged(r) {
		lines = append(lines, judgementLines(r)...)
	}
	p("%s.", render.EscapeMarkdown(strings.Join(lines, ". ")))
	if raw := rawText(r); raw != "" {
		p(" Raw results (Go benchmark format, for benchstat): %s.", render.EscapeMarkdown(raw))
	}
	p("</sub>\n")
	if len(r.Notes) > 0 {
		p("\nNotes:\n\n")
		for _, n := range r.Notes {
			p("- %s\n", render.EscapeMarkdown(n))
		}
	}
	return ew.Err
}
