package compare

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/mbopt/mbopt/compare/benchstats"
)

// judge takes the verdict of every compared result of rep that has an
// estimate, by the rule of package benchstats (benchstats.Judge):
//
//  1. A result with fewer measurements in a version than a verdict needs at
//     Settings.Confidence (benchstats.MinSamples) is unchanged and TooFew.
//  2. The bootstrap p-values (Estimate.P) of the other results go through
//     Benjamini–Hochberg at Settings.FDR; PAdjusted is each one's adjusted
//     p-value, and a result is significant when it is at most the FDR. An
//     estimate whose measurements are all the same value in both versions
//     (Estimate.Constant: an exact unit that did not move) is no test and
//     is left out ([tests]).
//  3. A significant result whose whole interval lies beyond
//     ±max(Settings.Threshold, calibrated) is definite; calibrated(id, unit)
//     is the benchmark's calibrated threshold (nil or 0: none). Otherwise
//     it is potential when its median passes the largest of that band, the
//     dynamic threshold (75% of its interval's width; only without
//     calibration) and its minimum detectable effect towards 0, and
//     unchanged when not.
//
// A B/op that is amortized (see [amortized]) is no test and no change: it
// is unchanged, with the caveat [CaveatAmortized].
//
// It sets rep.FalseAlarms. Which direction is better comes from the unit,
// as in [AnalyzeReaders].
func judge(rep *Report, calibrated func(id, unit string) float64) {
	s := rep.Settings
	minN := benchstats.MinSamples(s.Confidence)
	noise := amortized(rep)
	idx := slices.DeleteFunc(tests(rep), func(i int) bool { return noise[i] })
	ps := make([]float64, len(idx))
	for k, i := range idx {
		ps[k] = rep.Results[i].Estimate.P
	}
	sig := make(map[int]bool, len(idx))
	for k, a := range benchstats.AdjustBH(ps) {
		i := idx[k]
		rep.Results[i].PAdjusted = a
		sig[i] = a <= s.FDR
	}
	fa := &FalseAlarms{FDR: s.FDR, Tests: len(idx), Uncorrected: benchstats.UncorrectedFalseAlarms(len(idx), s.Confidence)}
	var units benchfmt.UnitMetadataMap
	for i := range rep.Results {
		r := &rep.Results[i]
		if r.Status != Compared || r.Estimate == nil {
			continue
		}
		var cal float64
		if calibrated != nil {
			cal = calibrated(r.ID, r.Unit)
		}
		j := benchstats.Judge(*r.Estimate, benchstats.Rule{Threshold: s.Threshold, Calibrated: cal,
			HigherIsBetter: units.GetBetter(r.Unit) > 0, MinSamples: minN, Significant: sig[i]})
		mde := j.MDE
		r.Verdict, r.Threshold, r.ThresholdBasis, r.TooFew, r.MinDetectableEffect = j.Verdict, j.Threshold, j.Basis, j.TooFew, &mde
		// Judged again (reclassified), a result gets its caveat anew.
		r.Caveats = slices.DeleteFunc(r.Caveats, func(c string) bool { return strings.HasPrefix(c, CaveatImprecise) })
		if s.counting() && r.Unit == s.unit() && mde > ImpreciseMDE {
			r.Caveats = append(r.Caveats, imprecise(mde, r.Caveats))
			slices.Sort(r.Caveats)
		}
		if noise[i] {
			r.Verdict = benchstats.Unchanged
			if !slices.Contains(r.Caveats, CaveatAmortized) {
				r.Caveats = append(r.Caveats, CaveatAmortized)
				slices.Sort(r.Caveats)
			}
		}
		if sig[i] {
			fa.Significant++
		}
		if j.Verdict.Definite() {
			fa.Definite++
		}
	}
	fa.Expected = benchstats.ExpectedFalseAlarms(s.FDR, fa.Definite)
	rep.FalseAlarms = fa
}

// ImpreciseMDE is the minimum detectable effect above which a counting
// metric's result is marked imprecise (1%): counting is meant to see far
// smaller changes, so something in the benchmark moves its count.
const ImpreciseMDE = 0.01

// CaveatImprecise starts the caveat of a counting metric's result whose
// minimum detectable effect is above ImpreciseMDE; [imprecise] writes it.
const CaveatImprecise = "imprecise: "

// imprecise returns the caveat of a result whose minimum detectable
// effect mde is above ImpreciseMDE, with the reasons the benchmark's
// other caveats give ("less stable: …") when it has some.
func imprecise(mde float64, caveats []string) string {
	var why []string
	for _, c := range caveats {
		if w, ok := strings.CutPrefix(c, "less stable: "); ok {
			why = append(why, w)
		}
	}
	reason := "the reason is not known: its count varies between processes"
	if len(why) > 0 {
		reason = "it " + strings.Join(why, ", ")
	}
	return fmt.Sprintf("%sits minimum detectable effect is %.2g%%, above %g%%: %s; more trials (--trials, --budget) narrow it", CaveatImprecise, 100*mde, 100*ImpreciseMDE, reason)
}

// CaveatAmortized is the caveat of an amortized B/op ([amortized]).
const CaveatAmortized = "amortized B/op: the benchmark makes 0 allocations per operation, so its bytes per operation are a few allocations spread over however many iterations ran: noise, never a change on its own"

// amortized returns the indexes in rep.Results of the B/op results whose
// benchmark's allocs/op is 0 in both versions: the few allocations of a
// benchmark that allocates nothing per operation (a buffer grown once, the
// framework's own) divided by the iteration count, which moves with the
// iteration count, not with the code.
func amortized(rep *Report) map[int]bool {
	none := map[string]bool{}
	for _, r := range rep.Results {
		if r.Unit == "allocs/op" && r.Status == Compared && r.Estimate != nil && r.Estimate.BaseMedian == 0 && r.Estimate.HeadMedian == 0 {
			none[r.ID] = true
		}
	}
	out := map[int]bool{}
	for i, r := range rep.Results {
		if r.Unit == "B/op" && r.Status == Compared && r.Estimate != nil && none[r.ID] {
			out[i] = true
		}
	}
	return out
}

// tests returns the indexes in rep.Results of the false-discovery-rate
// correction's tests, in order: the compared results with an estimate and
// the measurements a verdict needs at Settings.Confidence in both versions
// (benchstats.MinSamples), but not those whose estimate is Constant. An
// exact unit that did not move (B/op and allocs/op of a benchmark that
// allocates the same in both versions) has p = 1 whatever the data could
// have been: counted as a test it would only raise the bar for the others
// (with --benchmem, three times), so that a suite of 91 benchmarks could
// not flag a lone 3× slowdown.
func tests(rep *Report) []int {
	minN := benchstats.MinSamples(rep.Settings.Confidence)
	var idx []int
	for i, r := range rep.Results {
		if r.Status == Compared && r.Estimate != nil && !r.Estimate.Constant && r.Estimate.BaseN >= minN && r.Estimate.HeadN >= minN {
			idx = append(idx, i)
		}
	}
	return idx
}
