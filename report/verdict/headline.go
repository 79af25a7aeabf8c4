package verdict

import (
	"cmp"
	"fmt"
	"math"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/report/internal/render"
)

// This file chooses the result a report leads with and writes the
// sentence that names it.

// leading returns the detection the headline names (see the rule in
// text.go's file comment) among detected, the results of a comparison in
// metric, or nil when there is none.
func leading(detected []compare.Result, metric measure.Metric) *compare.Result {
	var best *compare.Result
	for i := range detected {
		c := &detected[i]
		if best == nil || leadCompare(c, best, metric) > 0 {
			best = c
		}
	}
	return best
}

// leadCompare orders a before b (> 0) by the headline rule, earlier
// results winning ties.
func leadCompare(a, b *compare.Result, metric measure.Metric) int {
	ia, ib := impactOf(a), impactOf(b)
	if metric == "" {
		metric = measure.Time
	}
	inMetric := func(r *compare.Result) int {
		if r.Unit == metric.Unit() {
			return 1
		}
		return 0
	}
	return cmp.Or(
		cmp.Compare(inMetric(a), inMetric(b)),
		cmp.Compare(a.Verdict.Severity(), b.Verdict.Severity()),
		cmp.Compare(ia.Attributed, ib.Attributed),
		cmp.Compare(ia.Flat, ib.Flat),
		cmp.Compare(math.Abs(a.Estimate.Change), math.Abs(b.Estimate.Change)),
	)
}

// appMeasure is what im's shares are of, for prose: "CPU time", or the
// application profile's unit when the analysis read a non-CPU profile
// ("instructions", [render.AppMeasure] of im.Unit).
func appMeasure(im *callgraph.Impact) string { return render.AppMeasure(im.Unit, "CPU time") }

// impactOf returns the result's impact, zero when unknown.
func impactOf(r *compare.Result) callgraph.Impact {
	if r.Impact == nil {
		return callgraph.Impact{}
	}
	return *r.Impact
}

// firstImpact returns the impact of r's first result that carries one,
// nil when none does. A comparison's impacts come from one analysis, so
// its unit ([appMeasure]) is every one's.
func firstImpact(r *compare.Report) *callgraph.Impact {
	for _, res := range r.Results {
		if res.Impact != nil {
			return res.Impact
		}
	}
	return nil
}

// headline returns the sentence the report leads with, naming benchmarks
// with name. A judged report (see [judged]) leads with its largest definite
// change; a judged report without one says so first, and then names the
// leading potential change. A report from before the judgement leads with
// its leading detection.
func headline(r *compare.Report, name func(*compare.Result) string) string {
	detected, unchanged, _ := groups(r)
	conf := fmt.Sprintf("%g%%", 100*r.Settings.Confidence)
	describe := func(lead *compare.Result) string {
		e := lead.Estimate
		s := fmt.Sprintf("%s of %s in %s (%s, %s CI %s)", verdictWords(lead.Verdict), render.SignedPct(e.Change), name(lead), lead.Unit, conf, ciText(e.CI))
		if im := lead.Impact; im != nil {
			s += fmt.Sprintf(", which covers %s of the application's %s (%s flat)", render.Pct(im.Attributed), appMeasure(im), render.Pct(im.Flat))
		}
		return s
	}
	compared := len(detected) + len(unchanged)
	if !judged(r) {
		if lead := leading(detected, r.Settings.Metric); lead != nil {
			return "A " + describe(lead) + "."
		}
		if compared == 0 {
			return "Nothing could be compared: no benchmark ran in both versions."
		}
		return fmt.Sprintf("No change beyond ±%s in %s (%s confidence).", thresholdText(r.Settings.Threshold), textutil.Plural(compared, "result"), conf)
	}
	var definite []compare.Result
	for _, d := range detected {
		if d.Verdict.Definite() {
			definite = append(definite, d)
		}
	}
	if lead := leading(definite, r.Settings.Metric); lead != nil {
		return "A " + describe(lead) + "."
	}
	if compared == 0 {
		return "Nothing could be compared: no benchmark ran in both versions."
	}
	if tooFew(r) == compared {
		return fmt.Sprintf("No verdict: too few samples in all %s for a verdict at %s confidence (%d measurements per version needed).", textutil.Plural(compared, "result"), conf, benchstats.MinSamples(r.Settings.Confidence))
	}
	s := fmt.Sprintf("No definite change in %s (each against its own threshold; %s confidence, false discovery rate %g%%).", textutil.Plural(compared, "result"), conf, 100*r.Settings.FDR)
	if lead := leading(detected, r.Settings.Metric); lead != nil {
		s += " The largest potential change: a " + describe(lead) + "."
	}
	return s
}

// judged reports whether r's verdicts were taken with per-result
// thresholds and the false-discovery-rate correction (compare's judgement):
// then each result carries its threshold and minimum detectable effect,
// and the report shows them.
func judged(r *compare.Report) bool { return r.FalseAlarms != nil }

// tooFew counts r's results with too few samples for a verdict.
func tooFew(r *compare.Report) int {
	n := 0
	for _, res := range r.Results {
		if res.TooFew {
			n++
		}
	}
	return n
}
