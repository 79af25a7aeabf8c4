package benchstats

import "math"

// DynamicFraction is the share of an interval's width that is a benchmark's
// dynamic threshold when it has no calibrated one: the study's 75% (a
// compromise between the false alarms of 50% and the missed changes of
// 100%).
const DynamicFraction = 0.75

// MinDetectableEffect returns the smallest relative change this estimate's
// noise and repetitions could have told from no change at its confidence
// level: the larger of the interval's two half-widths around the median
// change, max(Change − CI.Low, CI.High − Change). An estimate whose
// interval is a point (identical measurements) has 0. A "no change" with
// a minimum detectable effect of 0.3% says that no change larger than
// 0.3% (or the threshold, when larger) was there to be seen.
func (e Estimate) MinDetectableEffect() float64 {
	return max(0, e.Change-e.CI.Low, e.CI.High-e.Change)
}

// MinSamples returns the fewest measurements each version needs for a
// verdict at the given confidence level (0 means [DefaultConfidence]):
// the smallest n with 2·0.5ⁿ ≤ 1 − confidence, the size at which a
// distribution-free interval of the median exists at that level
// (benchstat's rule: 6 at 95%, 8 at 99%). With fewer measurements a change
// cannot be told from chance whatever the bootstrap says, so [Judge]
// gives no verdict.
func MinSamples(confidence float64) int {
	if confidence == 0 {
		confidence = DefaultConfidence
	}
	alpha := 1 - confidence
	n := 1
	for ; n < 64 && 2*math.Pow(0.5, float64(n)) > alpha*(1+1e-9); n++ {
	}
	return n
}

// A Basis says which term set a [Judgement]'s threshold.
type Basis string

// The terms of the applied threshold, in the order that breaks ties.
const (
	// BasisFixed: the fixed threshold (--threshold) was the largest.
	BasisFixed Basis = "threshold"
	// BasisCalibrated: the benchmark's threshold calibrated from A/A
	// comparisons was the largest.
	BasisCalibrated Basis = "calibrated"
	// BasisDynamic: DynamicFraction of the interval's width was the
	// largest (no calibration).
	BasisDynamic Basis = "dynamic"
	// BasisMDE: the minimum detectable effect was the largest.
	BasisMDE Basis = "min-detectable"
)

// A Rule says how [Judge] classifies one estimate.
type Rule struct {
	// Threshold is the fixed threshold, a relative change (0.01 is 1%);
	// its sign is ignored.
	Threshold float64
	// Calibrated is the benchmark's threshold calibrated from A/A
	// comparisons; 0 means none, and the dynamic threshold
	// (DynamicFraction × the interval's width) takes its place.
	Calibrated float64
	// HigherIsBetter says which direction is an improvement: false for
	// times, instructions and allocations, true for throughput.
	HigherIsBetter bool
	// MinSamples is the fewest measurements each version needs for a
	// verdict, usually [MinSamples] of the confidence level; 0 means no
	// minimum.
	MinSamples int
	// Significant says that the estimate's P passed the run's
	// false-discovery-rate correction ([BenjaminiHochberg] over every
	// estimate of the run). Only a significant estimate can be definite.
	Significant bool
}

// A Judgement is the verdict on one estimate and how it was reached.
type Judgement struct {
	// Verdict is the classification.
	Verdict Verdict
	// Threshold is the threshold the verdict was taken against: for a
	// definite change the band, the larger of the fixed and the calibrated
	// threshold, that its whole interval lies beyond; otherwise the
	// largest of the band, the dynamic threshold (without calibration)
	// and the half-width of the interval towards 0, which its median had
	// to pass.
	Threshold float64
	// Basis says which term Threshold is (ties go to the first in the
	// order fixed, calibrated, dynamic, minimum detectable effect).
	Basis Basis
	// MDE is the estimate's minimum detectable effect in either direction
	// (Estimate.MinDetectableEffect).
	MDE float64
	// TooFew is set when a version has fewer measurements than
	// Rule.MinSamples: the verdict is then Unchanged whatever the data,
	// and no gate may fail on it.
	TooFew bool
}

// Judge classifies e by rule r; it is [Classify] with the thresholds that
// make a verdict trustworthy. Let band = max(|r.Threshold|, r.Calibrated):
//
//   - A change is definite when e is significant after the run's
//     correction (r.Significant) and its whole interval lies beyond ±band
//     (so it also passes its minimum detectable effect).
//   - Otherwise it is potential when its median passes ±T, where T is the
//     largest of band, the dynamic threshold (DynamicFraction × the
//     interval's width; only without calibration) and the minimum
//     detectable effect in the change's direction (the interval's
//     half-width towards 0): a 1% threshold against a 100%-wide interval
//     does not make noise a change.
//   - Otherwise it is unchanged; a near-deterministic measurement (width
//     0) still needs the fixed threshold for any change.
//   - With fewer than r.MinSamples measurements in a version the verdict is
//     Unchanged and TooFew is set.
//
// The dynamic threshold does not apply to definite changes because their
// interval already carries the noise it measures: asking a definite change
// to clear 75% of the width beyond its interval would need a median 1.25
// widths away, and a real 30% change in wall time with a 40%-wide interval
// could never be called. Bounds are strict, as in Classify.
func Judge(e Estimate, r Rule) Judgement {
	band, bandBasis := math.Abs(r.Threshold), BasisFixed
	if r.Calibrated > band {
		band, bandBasis = r.Calibrated, BasisCalibrated
	}
	j := Judgement{MDE: e.MinDetectableEffect(), Threshold: band, Basis: bandBasis}
	if d := DynamicFraction * e.CI.Width(); r.Calibrated == 0 && d > j.Threshold {
		j.Threshold, j.Basis = d, BasisDynamic
	}
	// The minimum detectable effect towards 0: for an increase the
	// interval's lower half-width, for a decrease its upper one.
	mde := j.MDE
	switch {
	case e.Change > 0:
		mde = e.Change - e.CI.Low
	case e.Change < 0:
		mde = e.CI.High - e.Change
	}
	if mde > j.Threshold {
		j.Threshold, j.Basis = mde, BasisMDE
	}
	if r.MinSamples > 0 && (e.BaseN < r.MinSamples || e.HeadN < r.MinSamples) {
		j.TooFew = true
		return j
	}
	up, down := DefiniteRegression, DefiniteImprovement
	if r.HigherIsBetter {
		up, down = down, up
	}
	switch {
	case r.Significant && e.CI.Low > band:
		j.Verdict, j.Threshold, j.Basis = up, band, bandBasis
	case r.Significant && e.CI.High < -band:
		j.Verdict, j.Threshold, j.Basis = down, band, bandBasis
	case e.Change > j.Threshold:
		j.Verdict = potential(up)
	case e.Change < -j.Threshold:
		j.Verdict = potential(down)
	}
	return j
}
