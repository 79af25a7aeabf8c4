package compare

import (
	"golang.org/x/perf/benchfmt"

	"github.com/mbopt/mbopt/benchstats"
)

// judge takes the verdict of every compared result of rep that has an
// estimate, by the rule of package benchstats (benchstats.Judge):
//
//  1. A result with fewer measurements in a version than a verdict needs at
//     Settings.Confidence (benchstats.MinSamples) is unchanged and TooFew.
//  2. The bootstrap p-values (Estimate.P) of the other results go through
//     Benjamini–Hochberg at Settings.FDR; PAdjusted is each one's adjusted
//     p-value, and a result is significant when it is at most the FDR.
//  3. A significant result whose whole interval lies beyond
//     ±max(Settings.Threshold, calibrated) is definite; calibrated(id, unit)
//     is the benchmark's calibrated threshold (nil or 0: none). Otherwise
//     it is potential when its median passes the largest of that band, the
//     dynamic threshold (75% of its interval's width; only without
//     calibration) and its minimum detectable effect towards 0, and
//     unchanged when not.
//
// It sets rep.FalseAlarms. Which direction is better comes from the unit,
// as in [AnalyzeReaders].
func judge(rep *Report, calibrated func(id, unit string) float64) {
	s := rep.Settings
	minN := benchstats.MinSamples(s.Confidence)
	var idx []int
	var ps []float64
	for i, r := range rep.Results {
		if r.Status == Compared && r.Estimate != nil && r.Estimate.BaseN >= minN && r.Estimate.HeadN >= minN {
			idx = append(idx, i)
			ps = append(ps, r.Estimate.P)
		}
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
