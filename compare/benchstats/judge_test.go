package benchstats

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMinSamples(t *testing.T) {
	for _, tc := range []struct {
		confidence float64
		want       int
	}{
		// 2·0.5ⁿ ≤ 1 − c: 2/64 ≤ 0.05 < 2/32; 2/256 ≤ 0.01 < 2/128.
		{0.95, 6}, {0.99, 8}, {0, 8}, {0.9, 5}, {0.999, 11}, {0.5, 2},
	} {
		assert.Equal(t, tc.want, MinSamples(tc.confidence), "confidence %v", tc.confidence)
	}
	// The schedules of issue 25: 2 trials × 1 run × 2 counts is too few at
	// 99%; the default 3 × 3 × 5 and 3 × 2 × 3 are enough.
	assert.Less(t, 2*1*2, MinSamples(0.99))
	assert.GreaterOrEqual(t, 3*3*5, MinSamples(0.99))
	assert.GreaterOrEqual(t, 3*2*3, MinSamples(0.99))
}

func TestMinDetectableEffect(t *testing.T) {
	for _, tc := range []struct {
		e    Estimate
		want float64
	}{
		{Estimate{Change: 0.01, CI: Interval{-0.02, 0.03}}, 0.03},
		{Estimate{Change: 0.01, CI: Interval{0.005, 0.05}}, 0.04},
		{Estimate{Change: 0.03, CI: Interval{0.03, 0.03}}, 0},
	} {
		assert.InDelta(t, tc.want, tc.e.MinDetectableEffect(), 1e-12, "%+v", tc.e)
	}
}

func TestJudge(t *testing.T) {
	est := func(change, lo, hi float64) Estimate {
		return Estimate{Change: change, CI: Interval{lo, hi}, BaseN: 45, HeadN: 45}
	}
	for _, tc := range []struct {
		name   string
		e      Estimate
		r      Rule
		want   Verdict
		t      float64
		basis  Basis
		tooFew bool
	}{{
		// Counted instructions: a 3% change in a 0.1%-wide interval. The
		// dynamic threshold (0.075%) and the MDE (0.05%) are below 1%.
		name: "deterministic 3%", e: est(0.03, 0.0295, 0.0305),
		r: Rule{Threshold: 0.01, Significant: true}, want: DefiniteRegression, t: 0.01, basis: BasisFixed,
	}, {
		// Width 0 still needs the fixed threshold to call a change.
		name: "deterministic 0.5%", e: est(0.005, 0.005, 0.005),
		r: Rule{Threshold: 0.01, Significant: true}, want: Unchanged, t: 0.01, basis: BasisFixed,
	}, {
		// The A/A of issue 21: +12.1% in [−9.9%, +43.5%] was a potential
		// regression against 1%; the dynamic threshold is 0.75·53.4% =
		// 40.05%, so it is no change.
		name: "noise is no change", e: est(0.121, -0.099, 0.435),
		r: Rule{Threshold: 0.01, Significant: false}, want: Unchanged, t: 0.4005, basis: BasisDynamic,
	}, {
		// A 30% change in a 20%-wide interval: the interval clears ±1%
		// and the median the MDE (10%).
		name: "wall time 30%", e: est(0.30, 0.20, 0.40),
		r: Rule{Threshold: 0.01, Significant: true}, want: DefiniteRegression, t: 0.01, basis: BasisFixed,
	}, {
		// A 30% change in a 40%-wide interval is still definite: the
		// dynamic threshold (30%) is for potential changes.
		name: "wall time 30% wide", e: est(0.30, 0.12, 0.52),
		r: Rule{Threshold: 0.01, Significant: true}, want: DefiniteRegression, t: 0.01, basis: BasisFixed,
	}, {
		// The same estimate, not significant after the correction: at
		// most potential.
		name: "not significant", e: est(0.30, 0.20, 0.40),
		r: Rule{Threshold: 0.01, Significant: false}, want: PotentialRegression, t: 0.15, basis: BasisDynamic,
	}, {
		// Median beyond the threshold (0.75·3% = 2.25%), interval
		// reaching into ±1%.
		name: "potential", e: est(-0.025, -0.04, -0.01),
		r: Rule{Threshold: 0.01, Significant: true}, want: PotentialImprovement, t: 0.0225, basis: BasisDynamic,
	}, {
		// A skewed interval: the MDE towards 0 (lower half-width 8.5%)
		// beats the dynamic threshold (0.75·9.5%); the median passes it.
		name: "potential beyond the MDE", e: est(0.09, 0.005, 0.10),
		r: Rule{Threshold: 0.01, Significant: true}, want: PotentialRegression, t: 0.085, basis: BasisMDE,
	}, {
		// A skewed interval reaching far up: the change is definite (its
		// lower bound clears ±1%) although its median is below the MDE
		// in the other direction (8%).
		name: "skewed up", e: est(0.07, 0.06, 0.15),
		r: Rule{Threshold: 0.01, Significant: true}, want: DefiniteRegression, t: 0.01, basis: BasisFixed,
	}, {
		// Not significant, the same interval is a potential change: its
		// median passes the dynamic threshold (6.75%) and the MDE towards
		// 0 (1%).
		name: "skewed up, not significant", e: est(0.07, 0.06, 0.15),
		r: Rule{Threshold: 0.01}, want: PotentialRegression, t: 0.0675, basis: BasisDynamic,
	}, {
		// A calibrated threshold replaces the dynamic one and widens the
		// band: the interval must clear ±5%.
		name: "calibrated", e: est(0.08, 0.045, 0.10),
		r: Rule{Threshold: 0.01, Calibrated: 0.05, Significant: true}, want: PotentialRegression, t: 0.05, basis: BasisCalibrated,
	}, {
		name: "calibrated definite", e: est(0.08, 0.06, 0.10),
		r: Rule{Threshold: 0.01, Calibrated: 0.05, Significant: true}, want: DefiniteRegression, t: 0.05, basis: BasisCalibrated,
	}, {
		name: "throughput", e: est(0.30, 0.25, 0.35),
		r: Rule{Threshold: 0.01, HigherIsBetter: true, Significant: true}, want: DefiniteImprovement, t: 0.01, basis: BasisFixed,
	}, {
		// 4 measurements per version (2 trials × 1 run × 2 counts) at
		// 99%: no verdict, however clear the data.
		name: "too few", e: Estimate{Change: 0.5, CI: Interval{0.5, 0.5}, BaseN: 4, HeadN: 4},
		r: Rule{Threshold: 0.01, MinSamples: 8, Significant: true}, want: Unchanged, t: 0.01, basis: BasisFixed, tooFew: true,
	}, {
		name: "enough", e: Estimate{Change: 0.5, CI: Interval{0.5, 0.5}, BaseN: 8, HeadN: 9},
		r: Rule{Threshold: 0.01, MinSamples: 8, Significant: true}, want: DefiniteRegression, t: 0.01, basis: BasisFixed,
	}, {
		name: "negative threshold", e: est(0.03, 0.0295, 0.0305),
		r: Rule{Threshold: -0.01, Significant: true}, want: DefiniteRegression, t: 0.01, basis: BasisFixed,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			j := Judge(tc.e, tc.r)
			assert.Equal(t, tc.want, j.Verdict)
			assert.InDelta(t, tc.t, j.Threshold, 1e-12)
			assert.Equal(t, tc.basis, j.Basis)
			assert.Equal(t, tc.tooFew, j.TooFew)
			assert.InDelta(t, tc.e.MinDetectableEffect(), j.MDE, 0)
		})
	}
}

// TestFewProcessesAA measures what the minimum of measurements
// (MinSamples counts measurements, not processes) lets through on A/A data
// whose processes differ more than the iterations within one (issue 31:
// --duet parallel at --trials 2 --runs 1 gave a definite regression between
// identical revisions). Each version's process gets a random offset (sd
// procSD), each iteration a smaller one (sd 0.5%); a result is a false
// alarm when Judge calls it definite at the 1% threshold (significant at
// p ≤ 0.05, one test). With 2 processes per version the interval cannot
// see the process-to-process noise the iterations do not show, and a
// sixth of the benchmarks are false alarms at procSD 2%; 3 × 3 processes
// (the default) hold the rate below the 1% the confidence promises. The
// figures are those docs/compare.md quotes; the minimum stays on
// measurements (a 3× slowdown at 2 × 1 × 4 must stay definite), and the
// docs advise 3 × 3 for a gate.
func TestFewProcessesAA(t *testing.T) {
	if testing.Short() {
		t.Skip("400 comparisons per schedule; skipped with -short")
	}
	for _, tc := range []struct {
		trials, runs, count int
		procSD              float64
		min, max            float64 // the false-alarm rate's bounds
	}{
		{2, 1, 4, 0.02, 0.08, 0.30},
		{3, 2, 3, 0.02, 0, 0.02},
		{3, 2, 3, 0.05, 0, 0.04},
		{2, 1, 4, 0.005, 0, 0.02},
		{3, 3, 5, 0.02, 0, 0.01},
		{3, 3, 5, 0.05, 0, 0.01},
	} {
		t.Run(fmt.Sprintf("%dx%dx%d, process sd %g", tc.trials, tc.runs, tc.count, tc.procSD), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(31, 1))
			gen := func() Hierarchy {
				h := make(Hierarchy, tc.trials)
				for i := range h {
					for range tc.runs {
						off := 1 + tc.procSD*rng.NormFloat64()
						var run []float64
						for range tc.count {
							run = append(run, 100*off*(1+0.005*rng.NormFloat64()))
						}
						h[i] = append(h[i], run)
					}
				}
				return h
			}
			const n = 400
			alarms := 0
			for k := range n {
				e, err := Compare(gen(), gen(), Options{Seed: uint64(k), Resamples: 1000})
				require.NoError(t, err)
				if Judge(e, Rule{Threshold: 0.01, MinSamples: MinSamples(0.99), Significant: e.P <= 0.05}).Verdict.Definite() {
					alarms++
				}
			}
			rate := float64(alarms) / n
			t.Logf("%d of %d A/A benchmarks definite (%.1f%%)", alarms, n, 100*rate)
			assert.GreaterOrEqual(t, rate, tc.min)
			assert.LessOrEqual(t, rate, tc.max)
		})
	}
}
