package benchstats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1}, 2},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		in := append([]float64(nil), tc.in...)
		assert.Equal(t, tc.want, Median(tc.in), "%v", tc.in)
		assert.Equal(t, in, tc.in, "Median must not reorder its input")
	}
	assert.True(t, math.IsNaN(Median(nil)))
}

// TestCompareHandComputed checks cases whose intervals follow from
// counting: the bootstrap distribution is small enough to enumerate.
func TestCompareHandComputed(t *testing.T) {
	for _, tc := range []struct {
		name       string
		base, head Hierarchy
		change     float64
		ci         Interval
	}{{
		// One measurement each: every resample is the data itself.
		name: "single", base: Hierarchy{{{10}}}, head: Hierarchy{{{11}}},
		change: 0.1, ci: Interval{0.1, 0.1},
	}, {
		// Head resamples {10,10}, {10,12}, {12,12} with probabilities
		// 1/4, 1/2, 1/4: changes 0, 0.1, 0.2. Both tails hold far more
		// than 0.5% of the resamples, so the 99% interval is [0, 0.2].
		name: "two-values", base: Hierarchy{{{10, 10}}}, head: Hierarchy{{{10, 12}}},
		change: 0.1, ci: Interval{0, 0.2},
	}, {
		// Head is 1.1 × base in each trial, but the trials differ by a
		// factor of 2 (two machines). Trials are drawn for both versions
		// together, so every resample's change is exactly 0.1.
		name: "paired-trials", base: Hierarchy{{{10}}, {{20}}}, head: Hierarchy{{{11}}, {{22}}},
		change: 0.1, ci: Interval{0.1, 0.1},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Compare(tc.base, tc.head, Options{Seed: 1})
			require.NoError(t, err)
			assert.InDelta(t, tc.change, e.Change, 1e-12)
			assert.InDelta(t, tc.ci.Low, e.CI.Low, 1e-12)
			assert.InDelta(t, tc.ci.High, e.CI.High, 1e-12)
			assert.Equal(t, tc.base.Len(), e.BaseN)
		})
	}
	// The flat bootstrap does not pair the two machines' trials, so the
	// same data gives a wide interval.
	e, err := CompareFlat(Hierarchy{{{10}}, {{20}}}, Hierarchy{{{11}}, {{22}}}, Options{Seed: 1})
	require.NoError(t, err)
	assert.Less(t, e.CI.Low, 0.0)
	assert.Greater(t, e.CI.High, 0.5)
}

func TestCompareSeed(t *testing.T) {
	base, head := noisy(1, 3, 3, 5, 100, 0), noisy(2, 3, 3, 5, 103, 0)
	a, err := Compare(base, head, Options{Seed: 7})
	require.NoError(t, err)
	b, err := Compare(base, head, Options{Seed: 7})
	require.NoError(t, err)
	c, err := Compare(base, head, Options{Seed: 8})
	require.NoError(t, err)
	assert.Equal(t, a, b, "same seed, same interval")
	assert.NotEqual(t, a.CI, c.CI, "another seed draws other resamples")
	assert.Equal(t, 45, a.BaseN)
}

// TestHierarchicalWiderWithTrialShift: when the change itself differs
// between trials (the head is slower on one machine than on another), the
// 45 measurements are not 45 independent ones. The flat bootstrap
// pretends they are and gives a narrow interval; the hierarchical one
// accounts for there being only three trials.
func TestHierarchicalWiderWithTrialShift(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		base := noisy(3*seed, 3, 3, 5, 100, 0)
		head := noisy(4*seed, 3, 3, 5, 100, 0)
		for ti, shift := range []float64{-3, 0, 3} { // the head's trials differ by ±3%
			for _, run := range head[ti] {
				for i := range run {
					run[i] += shift
				}
			}
		}
		h, err := Compare(base, head, Options{Seed: seed})
		require.NoError(t, err)
		f, err := CompareFlat(base, head, Options{Seed: seed})
		require.NoError(t, err)
		// Measured ratios for seeds 1-3: 1.73, 1.87, 2.06.
		assert.Greater(t, h.Instability(), 1.5*f.Instability(), "seed %d: hierarchical %v, flat %v", seed, h.CI, f.CI)
	}
}

func TestCompareErrors(t *testing.T) {
	_, err := Compare(Hierarchy{}, Hierarchy{{{1}}}, Options{})
	assert.ErrorIs(t, err, ErrNoData)
	_, err = Compare(Hierarchy{{{}}}, Hierarchy{{{1}}}, Options{})
	assert.ErrorIs(t, err, ErrNoData)
	_, err = Compare(Hierarchy{{{0, 0}}}, Hierarchy{{{1}}}, Options{})
	assert.ErrorIs(t, err, ErrZeroMedian)
	// Zero allocations in both versions: no change, not an error.
	e, err := Compare(Hierarchy{{{0, 0}}}, Hierarchy{{{0}}}, Options{})
	require.NoError(t, err)
	assert.Equal(t, 0.0, e.Change)
	assert.Equal(t, Interval{0, 0}, e.CI)
	_, err = Compare(Hierarchy{{{math.NaN()}}}, Hierarchy{{{1}}}, Options{})
	assert.ErrorContains(t, err, "not finite")
	_, err = Compare(Hierarchy{{{1}}}, Hierarchy{{{1}}}, Options{Confidence: 1.5})
	assert.ErrorContains(t, err, "Confidence")
	_, err = Compare(Hierarchy{{{1}}}, Hierarchy{{{1}}}, Options{Resamples: -1})
	assert.ErrorContains(t, err, "Resamples")
	assert.False(t, errors.Is(err, ErrNoData))
}

// TestEmptyRunsIgnored: a trial whose runs all failed holds no data and
// must not be drawn.
func TestEmptyRunsIgnored(t *testing.T) {
	e, err := Compare(Hierarchy{{{10}}, {{}}}, Hierarchy{{{11}}, {}}, Options{Seed: 1})
	require.NoError(t, err)
	assert.Equal(t, Interval{0.1, 0.1}, roundCI(e.CI))
}

func roundCI(i Interval) Interval {
	r := func(x float64) float64 { return math.Round(x*1e9) / 1e9 }
	return Interval{r(i.Low), r(i.High)}
}

func TestClassify(t *testing.T) {
	est := func(change, lo, hi float64) Estimate { return Estimate{Change: change, CI: Interval{lo, hi}} }
	for _, tc := range []struct {
		name   string
		e      Estimate
		higher bool
		want   Verdict
	}{
		{"definite regression", est(0.3, 0.25, 0.35), false, DefiniteRegression},
		{"definite improvement", est(-0.3, -0.35, -0.25), false, DefiniteImprovement},
		{"potential regression", est(0.05, 0.005, 0.09), false, PotentialRegression},
		{"potential improvement", est(-0.05, -0.09, 0.001), false, PotentialImprovement},
		{"unchanged", est(0.005, -0.02, 0.03), false, Unchanged},
		{"interval ends on the threshold", est(0.05, 0.01, 0.09), false, PotentialRegression},
		{"throughput up is better", est(0.3, 0.25, 0.35), true, DefiniteImprovement},
		{"throughput down is worse", est(-0.05, -0.09, 0.0), true, PotentialRegression},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Classify(tc.e, 0.01, tc.higher))
			assert.Equal(t, tc.want, Classify(tc.e, -0.01, tc.higher), "the sign of the threshold does not matter")
		})
	}
}

func TestVerdictText(t *testing.T) {
	for v := Unchanged; v <= DefiniteRegression; v++ {
		b, err := v.MarshalText()
		require.NoError(t, err)
		var back Verdict
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, v, back)
		assert.Equal(t, string(b), v.String())
	}
	var v Verdict
	assert.Error(t, v.UnmarshalText([]byte("worse")))
	_, err := Verdict(9).MarshalText()
	assert.Error(t, err)
	assert.True(t, DefiniteRegression.Definite() && DefiniteRegression.Regression())
	assert.True(t, PotentialImprovement.Improvement() && !PotentialImprovement.Definite())
}

func TestVerdictSeverity(t *testing.T) {
	tests := []struct {
		v    Verdict
		want int
	}{
		{DefiniteRegression, 4},
		{PotentialRegression, 3},
		{DefiniteImprovement, 2},
		{PotentialImprovement, 1},
		{Unchanged, 0},
		{Verdict(9), 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.v.Severity(), tt.v.String())
	}
	d := Detections()
	require.Len(t, d, 4)
	for i := 1; i < len(d); i++ {
		assert.Greater(t, d[i-1].Severity(), d[i].Severity(), "Detections is most severe first")
	}
	assert.NotContains(t, d, Unchanged)
	d[0] = Unchanged
	assert.Equal(t, DefiniteRegression, Detections()[0], "each call returns a new slice")
}

func TestUTest(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	b := []float64{11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	assert.Less(t, UTest(a, b), 0.001)
	assert.Equal(t, 1.0, UTest(a, a))
	assert.Equal(t, 1.0, a[0], "UTest must not reorder its input")
}

// noisy returns a trials×runs×iters hierarchy of values around mean with
// a ±2% uniform noise, seeded.
func noisy(seed uint64, trials, runs, iters int, mean, _ float64) Hierarchy {
	rng := rand.New(rand.NewPCG(seed, seed))
	h := make(Hierarchy, trials)
	for t := range h {
		h[t] = make([][]float64, runs)
		for r := range h[t] {
			for range iters {
				h[t][r] = append(h[t][r], mean*(1+0.04*(rng.Float64()-0.5)))
			}
		}
	}
	return h
}

func BenchmarkCompare(b *testing.B) {
	base, head := noisy(1, 3, 3, 5, 100, 0), noisy(2, 3, 3, 5, 103, 0)
	for b.Loop() {
		if _, err := Compare(base, head, Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
