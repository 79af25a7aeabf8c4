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
	// Threshold is the applied threshold: the largest of the fixed
	// threshold, the calibrated or else the dynamic threshold, and the
	// minimum detectable effect.
	Threshold float64
	// Basis says which of those it was (ties go to the first in the
	// order fixed, calibrated, dynamic, minimum detectable effect).
	Basis Basis
	// MDE is the estimate's minimum detectable effect.
	MDE float64
	// TooFew is set when a version has fewer measurements than
	// Rule.MinSamples: the verdict is then Unchanged whatever the data,
	// and no gate may fail on it.
	TooFew bool
}

// Judge classifies e by rule r; it is [Classify] with the thresholds that
// make a verdict trustworthy:
//
//   - The applied threshold T is the largest of |r.Threshold|, r.Calibrated
//     (or, without calibration, DynamicFraction × the interval's width) and
//     e's minimum detectable effect. A change whose median does not pass
//     ±T is Unchanged: a 1% threshold against a 100%-wide interval does not
//     make noise a change, and a near-deterministic measurement (width 0)
//     still needs the fixed threshold.
//   - A median beyond ±T is a definite change when the estimate is
//     significant after the run's correction (r.Significant) and its whole
//     interval lies beyond the band ±max(|r.Threshold|, r.Calibrated);
//     otherwise it is a potential change. The band leaves out the dynamic
//     threshold and the minimum detectable effect because the interval
//     already carries the noise they measure.
//   - With fewer than r.MinSamples measurements in a version the verdict is
//     Unchanged and TooFew is set.
//
// Bounds are strict, as in Classify.
func Judge(e Estimate, r Rule) Judgement {
	j := Judgement{MDE: e.MinDetectableEffect(), Threshold: math.Abs(r.Threshold), Basis: BasisFixed}
	if r.Calibrated > j.Threshold {
		j.Threshold, j.Basis = r.Calibrated, BasisCalibrated
	}
	if d := DynamicFraction * e.CI.Width(); r.Calibrated == 0 && d > j.Threshold {
		j.Threshold, j.Basis = d, BasisDynamic
	}
	if j.MDE > j.Threshold {
		j.Threshold, j.Basis = j.MDE, BasisMDE
	}
	if r.MinSamples > 0 && (e.BaseN < r.MinSamples || e.HeadN < r.MinSamples) {
		j.TooFew = true
		return j
	}
	band := max(math.Abs(r.Threshold), r.Calibrated)
	up, down := DefiniteRegression, DefiniteImprovement
	if r.HigherIsBetter {
		up, down = down, up
	}
	switch {
	case e.Change > j.Threshold:
		j.Verdict = potential(up)
		if r.Significant && e.CI.Low > band {
			j.Verdict = up
		}
	case e.Change < -j.Threshold:
		j.Verdict = potential(down)
		if r.Significant && e.CI.High < -band {
			j.Verdict = down
		}
	}
	return j
}
