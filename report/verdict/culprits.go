package verdict

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
)

// This file renders the culprit functions of the changes
// (compare.Result.Culprits) and their application impact: in text the
// top TextCulprits under each explained result, in Markdown a table of
// the explained results by estimated application impact with the top
// MarkdownCulprits of each in a collapsed block.

// How many culprits each format shows per result; JSON has them all
// (compare.MaxCulprits).
const (
	TextCulprits     = 3
	MarkdownCulprits = 5
)

// explained returns r's results that were explained (with culprits or
// none beyond their noise), in r's order.
func explained(r *compare.Report) []*compare.Result {
	var out []*compare.Result
	for i := range r.Results {
		if len(r.Results[i].Culprits) > 0 || r.Results[i].Explained != nil {
			out = append(out, &r.Results[i])
		}
	}
	return out
}

// noCulprits says why an explained result has no culprits.
func noCulprits(res *compare.Result) string {
	e := res.Explained
	switch {
	case e == nil:
		return "no culprit functions"
	case e.TooFew:
		return fmt.Sprintf("no culprit functions: %d and %d per-function profiles are too few to tell a function's change from its noise", e.Measurements[0], e.Measurements[1])
	case e.Tested == 0:
		return fmt.Sprintf("no function changed (%d and %d per-function profiles)", e.Measurements[0], e.Measurements[1])
	}
	return fmt.Sprintf("no function changed beyond its noise: %s moved within it (%d and %d per-function profiles)",
		textutil.Plural(e.Noise, "function"), e.Measurements[0], e.Measurements[1])
}

// byAppImpact orders results by estimated application impact, largest
// first (results without one last), then by their order in the report.
func byAppImpact(rs []*compare.Result) []*compare.Result {
	out := slices.Clone(rs)
	slices.SortStableFunc(out, func(a, b *compare.Result) int {
		if (a.AppImpact != nil) != (b.AppImpact != nil) {
			if a.AppImpact != nil {
				return -1
			}
			return 1
		}
		if a.AppImpact == nil {
			return 0
		}
		return cmp.Compare(b.AppImpact.Estimate, a.AppImpact.Estimate)
	})
	return out
}

// culpritValue writes a culprit's per-operation value: instructions with
// the instructions metric, else CPU time (the profiles' nanoseconds).
func culpritValue(res *compare.Result, x float64, signed bool) string {
	var s string
	if x == 0 {
		s = "0"
	} else if res.Unit == "instructions/op" {
		s = render.Value(x, "instructions/op")
	} else {
		s = render.Value(x*1e-9, "sec/op")
	}
	if signed && x > 0 {
		s = "+" + s
	}
	return s
}

// pprofCommand is the command that shows the diff of res's profiles.
func pprofCommand(res *compare.Result) string {
	return "go tool pprof -top -diff_base " + res.Profiles.Base + " " + res.Profiles.Head
}

// appImpactText describes a result's application impact in one line.
func appImpactText(a *culprit.AppImpact) string {
	var s string
	switch a.Basis {
	case culprit.BasisNone:
		return "estimated application impact 0: no function and not the benchmark changed beyond its noise"
	case culprit.BasisBenchmark:
		s = fmt.Sprintf("estimated application impact %s [%s … %s] from the benchmark's change × its %s share of the application (no function changed beyond its noise)",
			render.SignedPct(a.Estimate), render.SignedPct(a.Low), render.SignedPct(a.High), render.Pct(a.BenchmarkShare))
	default:
		s = fmt.Sprintf("estimated application impact %s [%s … %s] from the changed functions, %s of the movement in the application's functions",
			render.SignedPct(a.Estimate), render.SignedPct(a.Low), render.SignedPct(a.High), render.Pct(a.RelevantShare))
		if a.Unattributed > 0 {
			s += fmt.Sprintf(", %s weighed by the benchmark's share of the application", render.Pct(a.Unattributed))
		}
	}
	if a.NoImpact {
		s += ": likely no application impact"
	}
	return s
}

// culpritChange writes a culprit's change: its relative change where its
// base is clearly positive, and its kind where it is not a plain change.
func culpritChange(res *compare.Result, c culprit.Culprit) string {
	s := culpritValue(res, c.Delta, true)
	if c.Relative != nil {
		s += ", " + render.SignedPct(*c.Relative)
	}
	switch c.Kind {
	case culprit.KindVanished:
		s += ", vanished"
	case culprit.KindNew:
		s += ", new"
	case culprit.KindUnclear:
		s += ", no clear base"
	}
	return s
}

// writeTextCulprits writes the top TextCulprits of each explained result
// under its name, with its application impact and the pprof command.
func writeTextCulprits(w io.Writer, r *compare.Report, name func(*compare.Result) string) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	rs := explained(r)
	if len(rs) == 0 {
		return
	}
	p("\nCulprits (per operation; the functions whose change is beyond their noise, largest first)\n")
	for _, res := range rs {
		p("  %s (%s %s)\n", name(res), res.Unit, render.SignedPct(res.Estimate.Change))
		if len(res.Culprits) == 0 {
			p("    %s\n", noCulprits(res))
		}
		if len(res.Culprits) > 0 {
			doc.Text(w).Table(culpritTable(res, TextCulprits))
		}
		if res.AppImpact != nil {
			p("    %s\n", appImpactText(res.AppImpact))
		}
		if res.Profiles != nil {
			p("    %s\n", pprofCommand(res))
		}
	}
}

// writeMarkdownCulprits writes the table of the explained results by
// estimated application impact and, for each, its top MarkdownCulprits
// in a collapsed block with the pprof command.
func writeMarkdownCulprits(w io.Writer, r *compare.Report, name func(*compare.Result) string) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	rs := byAppImpact(explained(r))
	if len(rs) == 0 {
		return
	}
	p("### Where the changes are\n\n")
	doc.Markdown(w).Table(whereTable(rs, name))
	p("\n")
	for i, res := range rs {
		// The summary is HTML, where Markdown's escapes do not apply:
		// it holds no data, only the number, the metric's unit and
		// figures.
		p("<details><summary>%d. %s</summary>\n\n", i+1, culpritSummary(res))
		if len(res.Culprits) == 0 {
			p("%s: %s.\n", render.MarkdownCode(name(res)), render.EscapeMarkdown(noCulprits(res)))
			if res.AppImpact != nil {
				t := appImpactText(res.AppImpact)
				p("\n%s.\n", render.EscapeMarkdown(strings.ToUpper(t[:1])+t[1:]))
			}
			p("\n</details>\n\n")
			continue
		}
		p("%s, per operation:\n\n", render.MarkdownCode(name(res)))
		doc.Markdown(w).Table(culpritTable(res, MarkdownCulprits))
		if res.AppImpact != nil {
			t := appImpactText(res.AppImpact)
			p("\n%s.\n", render.EscapeMarkdown(strings.ToUpper(t[:1])+t[1:]))
		}
		if res.Profiles != nil {
			p("\nReproduce: %s\n", render.MarkdownCode(pprofCommand(res)))
		}
		p("\n</details>\n\n")
	}
}

// culpritSummary describes a result's change and its top culprit's share
// without naming either: the metric's unit (one of compare's three, not
// data) and figures only.
func culpritSummary(res *compare.Result) string {
	unit := res.Unit
	switch unit {
	case "sec/op", "cpu-sec/op", "instructions/op":
	default:
		unit = "change"
	}
	s := fmt.Sprintf("%s %s: no function changed beyond its noise", unit, render.SignedPct(res.Estimate.Change))
	if len(res.Culprits) > 0 {
		s = fmt.Sprintf("%s %s: %s of the movement in the top function", unit, render.SignedPct(res.Estimate.Change), render.Pct(res.Culprits[0].Share))
	}
	if res.AppImpact != nil {
		if res.AppImpact.NoImpact {
			s += "; likely no application impact"
		} else {
			s += "; application impact " + render.SignedPct(res.AppImpact.Estimate)
		}
	}
	return s
}

// leadImpact returns the explained result whose estimated application
// impact is largest in size, not marked likely no application impact
// (ties: the report's order); nil when none has one.
func leadImpact(r *compare.Report) *compare.Result {
	var lead *compare.Result
	for i := range r.Results {
		res := &r.Results[i]
		a := res.AppImpact
		if a == nil || a.NoImpact || a.Basis == culprit.BasisNone {
			continue
		}
		if lead == nil || math.Abs(a.Estimate) > math.Abs(lead.AppImpact.Estimate) {
			lead = res
		}
	}
	return lead
}

// appSummary is the line a report leads with about the application: the
// largest estimated application impact and, where the application was
// measured, the measured change; "" when there is neither. name writes a
// result's name and data the workload's source as the format needs them
// (Markdown: code spans); the rest is words and figures.
func appSummary(r *compare.Report, name func(*compare.Result) string, data func(string) string) string {
	var parts []string
	if lead := leadImpact(r); lead != nil {
		a := lead.AppImpact
		basis := "from its changed functions"
		if a.Basis == culprit.BasisBenchmark {
			basis = "from its share of the application"
		}
		parts = append(parts, fmt.Sprintf("estimated %s [%s … %s] (%s, %s)", render.SignedPct(a.Estimate), render.SignedPct(a.Low), render.SignedPct(a.High), name(lead), basis))
	}
	if m := r.AppMeasured; m != nil {
		parts = append(parts, fmt.Sprintf("measured %s [%s … %s] (%s, %s)", render.SignedPct(m.Estimate.Change), render.SignedPct(m.Estimate.CI.Low), render.SignedPct(m.Estimate.CI.High), data(m.Source), data(m.Unit)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Application: " + strings.Join(parts, "; ") + "."
}
