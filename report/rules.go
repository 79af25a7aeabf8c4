package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
)

// The rules beyond the papers that make the relevance half's answers ones
// a maintainer would take: thin benchmark profiles, marginal suite picks,
// negligible recommendations, and the folded --explain listing.

// maxHidden bounds the hidden functions a thin benchmark's line names.
const maxHidden = 3

// marginalNote returns the line under a marginal pick.
func (d *Document) marginalNote(s Pick) string {
	added, kind := s.AddedAttributedImpactSeconds, "attributed"
	if !d.attributed() {
		added, kind = s.AddedImpactSeconds, "flat"
	}
	return fmt.Sprintf("      marginal: the functions it adds take %s (%.2f%%) of the application's %s time, under 1%%", d.weight(added), 100*added/max(d.Application.TotalSeconds, 1e-300), kind)
}

// what returns why n is negligible, for people: "0.09% of the
// application's time, inlined into covered callers" or "…, 3 lines".
func (n *Negligible) what() string {
	s := fmt.Sprintf("%.2f%% of the application's time", 100*n.Share)
	if n.Inlined {
		return s + ", inlined into covered callers"
	}
	switch n.LinesFrom {
	case "source":
		return s + fmt.Sprintf(", %d lines", n.Lines)
	case "profile":
		return s + fmt.Sprintf(", at most %d lines", n.Lines)
	}
	return s
}

// ruleLines returns the lines the text report prints under a
// recommendation for the rules: negligible, and may have run unseen.
func (r Recommendation) ruleLines() []string {
	var lines []string
	if r.Negligible != nil {
		lines = append(lines, "      negligible: "+r.Negligible.what())
	}
	if len(r.MaybeCoveredBy) > 0 {
		lines = append(lines, "      may have run unseen in thin profiles: "+strings.Join(r.MaybeCoveredBy, ", "))
	}
	return lines
}

// cpuWall is "0.22s of 1.20s" (CPU of wall time), or the CPU time alone
// when the wall time is unknown.
func (t ThinBenchmark) cpuWall() string {
	cpu := secs(float64(t.Samples) / 100)
	if t.WallSeconds <= 0 {
		return cpu
	}
	return cpu + " of " + secs(t.WallSeconds)
}

// thinFix returns the sentences, one per line, that say what the thin
// profiles' hidden functions mean for the recommendations and how to get
// rid of them.
func (d *Document) thinFix() []string {
	thinnest := slices.MinFunc(d.ThinBenchmarks, func(a, b ThinBenchmark) int {
		return cmp.Or(cmp.Compare(a.Samples, b.Samples), strings.Compare(a.ID, b.ID))
	})
	hidden := slices.ContainsFunc(d.ThinBenchmarks, func(t ThinBenchmark) bool { return len(t.Hidden) > 0 })
	var lines []string
	switch {
	case !hidden:
	case d.RecommendationTargets != "":
		lines = append(lines, "Recommendations (callable targets) leave out the functions they may hide.")
	default:
		lines = append(lines, "Recommendations (the paper's targets) keep the functions they may hide and mark them.")
	}
	return append(lines,
		fmt.Sprintf("Profile longer (mbopt profile --benchtime %s gives the thinnest about 100 samples),", thinnest.LongerBenchTime),
		"or record exact coverage, which no sampling misses (mbopt profile --source cover).")
}

// writeThinText writes the text report's thin-profile section.
func writeThinText(w io.Writer, d *Document) {
	if len(d.ThinBenchmarks) == 0 {
		return
	}
	fmt.Fprintf(w, "\nThin benchmark profiles (under 100 CPU samples: functions they ran briefly may be missing)\n")
	doc.Text(w).Table(d.thinTable())
	for _, line := range d.thinFix() {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

// writeThinMarkdown writes the Markdown report's thin-profile section.
func writeThinMarkdown(w io.Writer, p func(string, ...any), d *Document) {
	if len(d.ThinBenchmarks) == 0 {
		return
	}
	p("## Thin benchmark profiles\n\n")
	p("These profiles took under 100 CPU samples (1 s of CPU at 100 Hz), so functions their benchmarks ran briefly may be missing from their coverage. *may hide*: the project functions no benchmark is seen to cover that the application's call graph reaches from a function the profile covers.\n\n")
	doc.Markdown(w).Table(d.thinTable())
	p("\n%s\n\n", render.EscapeMarkdown(strings.Join(d.thinFix(), " ")))
}

// explainFolded returns the --explain lines of fs for callable targets:
// the project functions first (by flat time, then name), then one line per
// external package with the summed flat time and the number of functions
// (by time, then package; functions without a package, such as assembly,
// under "(no package)").
func (d *Document) explainFolded(fs []Function) []string {
	var project []Function
	type pkg struct {
		name  string
		flat  float64
		count int
	}
	var pkgs []pkg
	idx := map[string]int{}
	for _, f := range fs {
		if f.Project {
			project = append(project, f)
			continue
		}
		name := cmp.Or(f.Package, "(no package)")
		i, ok := idx[name]
		if !ok {
			i = len(pkgs)
			idx[name] = i
			pkgs = append(pkgs, pkg{name: name})
		}
		pkgs[i].flat += f.FlatSeconds
		pkgs[i].count++
	}
	lines := d.explain(project)
	for i := range pkgs {
		pkgs[i].flat = ns(pkgs[i].flat)
	}
	slices.SortFunc(pkgs, func(a, b pkg) int { return cmp.Or(cmp.Compare(b.flat, a.flat), strings.Compare(a.name, b.name)) })
	for _, p := range pkgs {
		lines = append(lines, fmt.Sprintf("      %s  external  %s (%s)", d.weight(p.flat), p.name, textutil.Plural(p.count, "function")))
	}
	return lines
}
