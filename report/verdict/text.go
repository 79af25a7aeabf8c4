package verdict

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
)

// This file renders a compare.Report as text; markdown.go and
// github.go render it for pull requests and GitHub Actions. All
// three share the reading of a report below: which result leads, how the
// results are grouped and how figures are written.
//
// Results are shown in the Report's order (the engine sorts them:
// detections first, by impact) within three groups: detections (a
// definite or potential change), unchanged, and not compared (added,
// removed, build failed, failed, skipped). The headline names the leading
// detection: one in the comparison's metric before one in another unit
// (B/op, allocs/op), then the most severe verdict (benchstats.Verdict.Severity:
// definite regression, potential regression, definite improvement,
// potential improvement), among those the largest attributed impact, then
// the largest flat impact, then the largest absolute change, then the
// Report's order. The tally counts verdicts in the same order.

// groups splits r's results into detections, unchanged results and
// results that were not compared, each in r's order; a benchmark that was
// not compared (added, removed, failed) is one result, whatever its units.
func groups(r *compare.Report) (detected, unchanged, other []compare.Result) {
	seen := map[string]bool{}
	for _, res := range r.Results {
		switch {
		case res.Status != compare.Compared:
			k := string(res.Status) + "\x00" + res.Side + "\x00" + res.ID
			if !seen[k] {
				seen[k] = true
				other = append(other, res)
			}
		case res.Estimate == nil:
			other = append(other, res)
		case res.Verdict == benchstats.Unchanged:
			unchanged = append(unchanged, res)
		default:
			detected = append(detected, res)
		}
	}
	return detected, unchanged, other
}

// verdictWords returns v as words: "definite regression".
func verdictWords(v benchstats.Verdict) string {
	return strings.ReplaceAll(v.String(), "-", " ")
}

// ciText writes an interval: "+10.1% … +14.6%".
func ciText(ci benchstats.Interval) string {
	return render.SignedPct(ci.Low) + " … " + render.SignedPct(ci.High)
}

// ppText writes a width of relative changes in percentage points: "4.5pp".
func ppText(x float64) string { return fmt.Sprintf("%.1fpp", 100*x) }

// displayName returns the benchmark as shown: its package relative to
// the module, a dot and its name ("storage.BenchmarkSearch/n=10"); the
// name alone for the module's root package; the full id when the result
// has no package or one outside the module.
func displayName(module string, res *compare.Result) string {
	if res.Package == "" || res.Name == "" {
		return res.ID
	}
	return benchname.Display(module, res.Package, res.Name)
}

// revisionText describes a revision in one line: spec, short commit,
// dirty mark, date and subject.
func revisionText(rev compare.Revision) string {
	parts := []string{rev.Spec}
	if rev.Commit != "" {
		c := rev.Commit[:min(12, len(rev.Commit))]
		if rev.Dirty {
			c += " + uncommitted changes"
		}
		parts = append(parts, c)
	}
	if !rev.Time.IsZero() {
		parts = append(parts, rev.Time.UTC().Format("2006-01-02 15:04Z"))
	}
	if rev.Subject != "" {
		parts = append(parts, fmt.Sprintf("%q", rev.Subject))
	}
	return strings.Join(parts, "  ")
}

// resultVerdict writes a result's verdict as words, "too few samples"
// when it had too few for one.
func resultVerdict(res *compare.Result) string {
	if res.TooFew {
		return "too few samples"
	}
	return verdictWords(res.Verdict)
}

// mdeText writes a result's minimum detectable effect: "0.3%", "0.012%"
// below a tenth of a percent (counted instructions), "" when unknown
// (the printers' dash).
func mdeText(res *compare.Result) string {
	if res.MinDetectableEffect == nil {
		return ""
	}
	return finePct(*res.MinDetectableEffect)
}

// finePct writes a relative figure as a percentage with one decimal, or
// two significant digits below 0.1%.
func finePct(x float64) string {
	if x != 0 && math.Abs(x) < 0.001 {
		return fmt.Sprintf("%.2g%%", 100*x)
	}
	return render.Pct(x)
}

// resultThreshold writes the threshold a result's verdict applied, with
// its source when that is not the fixed threshold: "4.1% dynamic"; ""
// when unknown (the printers' dash).
func resultThreshold(res *compare.Result) string {
	if res.Threshold == 0 && res.ThresholdBasis == "" {
		return ""
	}
	s := finePct(res.Threshold)
	switch res.ThresholdBasis {
	case benchstats.BasisDynamic:
		s += " dynamic"
	case benchstats.BasisCalibrated:
		s += " calibrated"
	case benchstats.BasisMDE:
		s += " MDE"
	}
	return s
}

// caveatLines return one line per benchmark with caveats (package
// compare's Result.Caveats), each named once in r's order: "name: caveat;
// caveat".
func caveatLines(r *compare.Report, name func(*compare.Result) string) []string {
	var lines []string
	seen := map[string]bool{}
	for i := range r.Results {
		res := &r.Results[i]
		if len(res.Caveats) == 0 || seen[res.ID] {
			continue
		}
		seen[res.ID] = true
		lines = append(lines, name(res)+": "+strings.Join(res.Caveats, "; "))
	}
	return lines
}

// judgementLines describe a judged report's rule and its false alarms.
func judgementLines(r *compare.Report) []string {
	st, fa := r.Settings, r.FalseAlarms
	lines := []string{
		fmt.Sprintf("Threshold: a definite change is significant and its whole interval lies beyond ±%s (or the benchmark's calibrated threshold); otherwise its median must pass the largest of that, the dynamic threshold (%g%% of the interval's width, without calibration) and the minimum detectable effect towards 0 (MDE: the smallest change this run could tell from no change)",
			thresholdText(st.Threshold), 100*benchstats.DynamicFraction),
		fmt.Sprintf("False discovery rate %g%% over %s (Benjamini–Hochberg on the bootstrap p-values; only a significant change can be definite): expected false alarms %.2g, %.2g without the correction",
			100*fa.FDR, textutil.Plural(fa.Tests, "test"), fa.Expected, fa.Uncorrected),
	}
	if n := tooFew(r); n > 0 {
		lines = append(lines, fmt.Sprintf("Too few samples: %s had fewer than the %d measurements per version a verdict needs at %g%% confidence",
			textutil.Plural(n, "result"), benchstats.MinSamples(st.Confidence), 100*st.Confidence))
	}
	return lines
}

// thresholdText writes the threshold as a percentage: "1%".
func thresholdText(t float64) string { return fmt.Sprintf("%g%%", 100*math.Abs(t)) }

// tally returns the counts of r's results in one line: "2 definite
// regressions, 1 potential improvement, 5 unchanged; 1 added, 1 failed,
// 36 skipped".
// Verdicts count results (a benchmark in each unit); the statuses after
// the semicolon count benchmarks, each once whatever its units.
func tally(r *compare.Report) string {
	count := map[string]int{}
	seen := map[string]bool{}
	for _, res := range r.Results {
		if res.Status != compare.Compared {
			// Not compared: a benchmark counts once, whatever its units.
			k := string(res.Status) + "\x00" + res.Side + "\x00" + res.ID
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		if res.TooFew {
			count["too few samples"]++
		} else if res.Status == compare.Compared && res.Estimate != nil {
			count[verdictWords(res.Verdict)]++
		} else {
			count[statusWords(res.Status)]++
		}
	}
	var changed, rest []string
	for _, v := range benchstats.Detections() {
		w := verdictWords(v)
		if n := count[w]; n > 0 {
			changed = append(changed, fmt.Sprintf("%d %s", n, textutil.Noun(n, w)))
		}
	}
	if n := count["unchanged"]; n > 0 {
		changed = append(changed, fmt.Sprintf("%d unchanged", n))
	}
	if n := count["too few samples"]; n > 0 {
		changed = append(changed, fmt.Sprintf("%d with too few samples", n))
	}
	for _, st := range compare.Statuses {
		if st == compare.Compared {
			continue // counted above by verdict
		}
		if n := count[statusWords(st)]; n > 0 {
			rest = append(rest, fmt.Sprintf("%d %s", n, statusWords(st)))
		}
	}
	s := strings.Join(changed, ", ")
	if len(rest) > 0 {
		if s != "" {
			s += "; "
		}
		s += strings.Join(rest, ", ")
	}
	return s
}

// statusWords returns a status as words: "failed to build".
func statusWords(s compare.Status) string {
	switch s {
	case compare.BuildFailed:
		return "failed to build"
	case compare.Compared:
		return "compared"
	}
	return string(s)
}

// otherStatus says briefly why a result was not compared: "added",
// "added (only in head)", "build-failed (head)", "skipped (both)".
func otherStatus(res *compare.Result) string {
	s := string(res.Status)
	switch res.Status {
	case compare.Added:
		return "added (only in head)"
	case compare.Removed:
		return "removed (only in base)"
	case compare.Compared:
		s = "no estimate"
	}
	if res.Side != "" && (res.Status == compare.BuildFailed || res.Status == compare.Failed || res.Status == compare.Skipped) {
		s += " (" + res.Side + ")"
	}
	return s
}

// otherReason is the first line of the error of a result that was not
// compared, "" for none.
func otherReason(res *compare.Result) string { return textutil.FirstLine(res.Error) }

// settingsLines describes how the comparison was made.
func settingsLines(r *compare.Report) []string {
	st := r.Settings
	lines := []string{
		fmt.Sprintf("%s × %s × %s per version at benchtime %s%s", textutil.Plural(st.Trials, "trial"), textutil.Plural(st.Runs, "run"), textutil.Plural(st.Count, "iteration"), st.BenchTime, map[bool]string{true: ", with allocations", false: ""}[st.Benchmem]),
		fmt.Sprintf("Change of the medians with a %g%% confidence interval from %d hierarchical bootstrap resamples (seed %d); threshold ±%s",
			100*st.Confidence, st.Resamples, st.Seed, thresholdText(st.Threshold)),
	}
	if judged(r) {
		// The threshold is per result; judgementLines say how.
		lines[1] = fmt.Sprintf("Change of the medians with a %g%% confidence interval from %d hierarchical bootstrap resamples (seed %d)",
			100*st.Confidence, st.Resamples, st.Seed)
	}
	var extra []string
	if st.Budget > 0 {
		extra = append(extra, "Fitted into a budget of "+durText(st.Budget))
	}
	if st.UntilStable > 0 {
		u := "Until stable: stopped a benchmark once its interval was narrower than " + ppText(st.UntilStable)
		if r.Saved > 0 {
			u += ", saving about " + durText(r.Saved)
		}
		extra = append(extra, u)
	}
	if r.Wall > 0 {
		extra = append(extra, "Took "+durText(r.Wall))
	}
	if len(extra) > 0 {
		lines = append(lines, strings.Join(extra, ". "))
	}
	return lines
}

// durText writes a duration rounded to what matters: "4m12s", "850ms".
func durText(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// rawText lists the raw result files: "base base.txt, head head.txt",
// with full paths when the report names its output directory.
func rawText(r *compare.Report) string {
	var parts []string
	for _, side := range []string{"base", "head"} {
		if f, ok := r.Raw[side]; ok {
			if r.Out != "" {
				f = filepath.Join(r.Out, f)
			}
			parts = append(parts, side+" "+f)
		}
	}
	return strings.Join(parts, ", ")
}

// WriteText writes r as text: a header naming the module, the metric and
// how to measure the other (measure.Metric.Choice), and the two
// revisions; the headline, a sentence on the leading detection and its
// share of the application's CPU time (or of its instructions: the
// impacts' unit, [appMeasure]); a tally; the table of detections
// and the table of unchanged results (verdict, change, confidence
// interval, instability, attributed and flat impact when known, unit and
// benchmark, which comes last so long names do not push the figures out
// of line), with after the detections the top TextCulprits culprit
// functions of each result that has them (compare.Result.Culprits), its
// application impact and the go tool pprof command that shows the diff;
// the results that could not be compared with the reason; and
// the settings, raw files and notes. Benchmarks are named relative to the
// module. Results keep r's order within each table. It returns the first
// write error.
func WriteText(w io.Writer, r *compare.Report) error {
	ew := render.NewTextWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(ew, format, a...) }
	name := func(res *compare.Result) string { return displayName(r.Module, res) }

	p("mbopt compare: %s, %s\n\n", cmp.Or(r.Module, "(unknown module)"), r.Settings.Metric.Choice())
	p("base  %s\n", revisionText(r.Base))
	p("head  %s\n\n", revisionText(r.Head))
	p("%s\n", headline(r, name))
	if a := appSummary(r, name, func(s string) string { return s }); a != "" {
		p("%s\n", a)
	}
	if t := tally(r); t != "" {
		p("In all: %s.\n", t)
	}

	detected, unchanged, other := groups(r)
	im := firstImpact(r)
	impact := im != nil
	writeTable := func(title string, results []compare.Result) {
		if len(results) == 0 {
			return
		}
		p("\n%s\n", title)
		doc.Text(ew).Table(resultsTable(r, results, impact))
	}
	writeTable("Changes (beyond the threshold band)", detected)
	writeTextCulprits(ew, r, name)
	writeTable("Unchanged", unchanged)
	if len(other) > 0 {
		p("\nNot compared\n")
		doc.Text(ew).Table(otherTable(other, name))
	}

	if cs := caveatLines(r, name); len(cs) > 0 {
		p("\nCaveats\n")
		for _, c := range cs {
			p("  %s\n", c)
		}
	}

	p("\n")
	if impact {
		p("impact: the share of the application's %s attributed to the functions a benchmark covers; flat: the share\n", appMeasure(im))
		p("of their flat time (the paper's reference impact); instability: the interval's width in percentage points\n")
	} else {
		p("instability: the interval's width in percentage points; no impact known (the comparison had no analysis)\n")
	}
	for _, l := range settingsLines(r) {
		p("%s\n", l)
	}
	if judged(r) {
		for _, l := range judgementLines(r) {
			p("%s\n", l)
		}
	}
	if l := untouchedLegend(r); l != "" {
		p("%s\n", l)
	}
	if raw := rawText(r); raw != "" {
		p("raw results (Go benchmark format, for benchstat): %s\n", raw)
	}
	for _, n := range r.Notes {
		p("note: %s\n", n)
	}
	return ew.Close()
}
