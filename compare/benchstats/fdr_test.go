package benchstats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBootstrapP(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changes []float64
		want    float64
	}{
		{"none", nil, 1},
		// All 9 resamples above 0: 2·(1+0)/(1+9).
		{"all positive", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 0.2},
		// 1 of 9 below: 2·(1+1)/10.
		{"one below", []float64{-1, 2, 3, 4, 5, 6, 7, 8, 9}, 0.4},
		// Exactly 0 counts on both sides: identical versions give 1.
		{"all zero", []float64{0, 0, 0}, 1},
		// 5 of 9 below, 4 above: 2·(1+4)/10 = 1.
		{"centred", []float64{-5, -4, -3, -2, -1, 1, 2, 3, 4}, 1},
		{"all negative", []float64{-3, -2, -1}, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.InDelta(t, tc.want, BootstrapP(tc.changes), 1e-12)
		})
	}
}

// TestBootstrapPCanPassTheCorrection: at the default schedule (3 trials
// × 3 runs × 5 count) and 10,000 resamples, a clear change gets the
// smallest p-value, 2/10,001, which Benjamini–Hochberg rejects at q = 0.05
// even alone among 200 tests (0.05/200 = 0.00025). A U-test on 3 trial
// medians per side could not go below 0.1.
func TestBootstrapPCanPassTheCorrection(t *testing.T) {
	base, head := noisy(1, 3, 3, 5, 100, 0), noisy(2, 3, 3, 5, 103, 0)
	e, err := Compare(base, head, Options{Seed: 1})
	require.NoError(t, err)
	assert.InDelta(t, 2.0/10001, e.P, 1e-12)
	ps := []float64{e.P}
	for range 199 {
		ps = append(ps, 0.5)
	}
	assert.True(t, BenjaminiHochberg(ps, 0.05)[0])
	medians := func(h Hierarchy) []float64 {
		var ms []float64
		for _, tr := range h {
			ms = append(ms, Median(Hierarchy{tr}.Values()))
		}
		return ms
	}
	assert.GreaterOrEqual(t, UTest(medians(base), medians(head)), 0.1)

	same, err := Compare(base, base, Options{Seed: 1})
	require.NoError(t, err)
	assert.Equal(t, 1.0, same.P, "identical versions")
}

func TestAdjustBH(t *testing.T) {
	for _, tc := range []struct {
		name string
		ps   []float64
		want []float64
		// rejected at q = 0.03
		rej []bool
	}{{
		// Sorted 0.005, 0.01, 0.03, 0.04 at ranks 1-4: m·p/j = 0.02,
		// 0.02, 0.04, 0.04; the running minimum from the top keeps them.
		name: "hand", ps: []float64{0.01, 0.04, 0.03, 0.005},
		want: []float64{0.02, 0.04, 0.04, 0.02}, rej: []bool{true, false, false, true},
	}, {
		// Step-up: rank 4 gives 4·0.04/4 = 0.04, smaller than the
		// 4·0.037/1, 4·0.038/2 and 4·0.039/3 of the ranks below it,
		// so all four share 0.04, above q = 0.03.
		name: "step-up", ps: []float64{0.039, 0.038, 0.037, 0.04},
		want: []float64{0.04, 0.04, 0.04, 0.04}, rej: []bool{false, false, false, false},
	}, {
		name: "ties", ps: []float64{0.01, 0.01, 0.5},
		want: []float64{0.015, 0.015, 0.5}, rej: []bool{true, true, false},
	}, {
		name: "NaN is 1", ps: []float64{math.NaN(), 0.001},
		want: []float64{1, 0.002}, rej: []bool{false, true},
	}, {
		name: "capped at 1", ps: []float64{0.9, 0.95},
		want: []float64{0.95, 0.95}, rej: []bool{false, false},
	}, {
		name: "empty", ps: nil, want: []float64{}, rej: []bool{},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]float64(nil), tc.ps...)
			got := AdjustBH(tc.ps)
			require.Len(t, got, len(tc.want))
			for i := range got {
				assert.InDelta(t, tc.want[i], got[i], 1e-12, "adjusted[%d]", i)
			}
			assert.Equal(t, tc.rej, BenjaminiHochberg(tc.ps, 0.03))
			assert.Equal(t, fmt.Sprint(in), fmt.Sprint(tc.ps), "the input is not modified")
		})
	}
}

func TestExpectedFalseAlarms(t *testing.T) {
	for _, tc := range []struct {
		q       float64
		flagged int
		want    float64
	}{{0.05, 0, 0.05}, {0.05, 1, 0.05}, {0.05, 4, 0.2}, {0.1, 3, 0.3}} {
		assert.InDelta(t, tc.want, ExpectedFalseAlarms(tc.q, tc.flagged), 1e-12, "%v", tc)
	}
	assert.InDelta(t, 2.5, UncorrectedFalseAlarms(50, 0.95), 1e-9)
	assert.InDelta(t, 1, UncorrectedFalseAlarms(100, 0.99), 1e-9)
}

// aaSuite returns m benchmarks measured twice with nothing changed, in the
// shape of a default comparison (3 trials × 3 runs × 5 count): a trial
// effect both versions share (they run interleaved in the same trial), a
// process effect of each version's process in a run and iteration noise.
// Every fifth benchmark is near-deterministic, like counted instructions;
// the others are noisy, like wall time on a shared runner, with a heavy
// tail (one iteration in 20 is up to 30% slower).
func aaSuite(seed uint64, m int) (base, head []Hierarchy) {
	rng := rand.New(rand.NewPCG(seed, 77))
	for b := range m {
		trialSD, procSD, iterSD := 0.05, 0.02, 0.03
		if b%5 == 0 {
			trialSD, procSD, iterSD = 0, 0.0002, 0.0001
		}
		bh, hh := make(Hierarchy, 3), make(Hierarchy, 3)
		for t := range 3 {
			tau := rng.NormFloat64() * trialSD
			for range 3 {
				pb, ph := rng.NormFloat64()*procSD, rng.NormFloat64()*procSD
				var br, hr []float64
				for range 5 {
					v := func(p float64) float64 {
						x := 1000 * (1 + tau + p + rng.NormFloat64()*iterSD)
						if iterSD > 0.001 && rng.IntN(20) == 0 {
							x *= 1 + 0.3*rng.Float64()
						}
						return x
					}
					br, hr = append(br, v(pb)), append(hr, v(ph))
				}
				bh[t], hh[t] = append(bh[t], br), append(hh[t], hr)
			}
		}
		base, head = append(base, bh), append(head, hh)
	}
	return base, head
}

// TestSyntheticAA runs synthetic A/A comparisons of 100 benchmarks and
// checks the run-level rule of package compare: Benjamini–Hochberg at
// q = 0.05 over the bootstrap p-values, then [Judge]. The false alarms
// observed over all the runs stay within the expectations each run
// prints (ExpectedFalseAlarms); the p-values are valid (no more than a
// share α of them below α); and a flat 1% threshold, the rule before
// the dynamic threshold, would have raised many potential changes.
func TestSyntheticAA(t *testing.T) {
	runs := 4
	if testing.Short() {
		runs = 1
	}
	const m, q = 100, 0.05
	var observed, potentials, oldPotentials, below5 int
	var expected float64
	for run := range runs {
		base, head := aaSuite(uint64(run+1), m)
		es := make([]Estimate, m)
		ps := make([]float64, m)
		for i := range m {
			e, err := Compare(base[i], head[i], Options{Seed: uint64(i)})
			require.NoError(t, err)
			es[i], ps[i] = e, e.P
			if e.P < 0.05 {
				below5++
			}
		}
		sig := BenjaminiHochberg(ps, q)
		flagged := 0
		for i, e := range es {
			j := Judge(e, Rule{Threshold: 0.01, MinSamples: MinSamples(0.99), Significant: sig[i]})
			if j.Verdict.Definite() {
				flagged++
			} else if j.Verdict != Unchanged {
				potentials++
			}
			if Classify(e, 0.01, false) != Unchanged && !Classify(e, 0.01, false).Definite() {
				oldPotentials++
			}
		}
		observed += flagged // nothing changed: every definite change is false
		expected += ExpectedFalseAlarms(q, flagged)
		t.Logf("run %d: %d false alarms, expected %.2f; %.0f without the correction", run+1, flagged, ExpectedFalseAlarms(q, flagged), UncorrectedFalseAlarms(m, 0.99))
	}
	t.Logf("%d runs: %d false alarms observed, %.2f expected; %d potential changes (%d with a flat 1%% threshold); %d of %d p-values below 0.05",
		runs, observed, expected, potentials, oldPotentials, below5, runs*m)
	assert.LessOrEqual(t, float64(observed), expected)
	assert.LessOrEqual(t, below5, runs*m*5/100)
	assert.Less(t, potentials, oldPotentials/5, "the dynamic threshold keeps noise from being a potential change")
}

// TestResamplesFor: with ResamplesFor(m, q) resamples the floor of the
// p-value passes Benjamini–Hochberg alone among m tests, and one resample
// fewer does not (issue 31 item 1: 10,000 resamples could not flag a lone
// change among 300 tests at 5%).
func TestResamplesFor(t *testing.T) {
	for _, tc := range []struct {
		tests int
		q     float64
		want  int
	}{
		{1, 0.05, 40},
		{250, 0.05, 10000},
		{300, 0.05, 12000},
		{3000, 0.05, 120000},
		{300, 0.01, 60000},
	} {
		t.Run(fmt.Sprintf("%d tests at %v", tc.tests, tc.q), func(t *testing.T) {
			n := ResamplesFor(tc.tests, tc.q)
			assert.Equal(t, tc.want, n)
			ps := make([]float64, tc.tests)
			for i := range ps {
				ps[i] = 1
			}
			ps[0] = PFloor(n)
			assert.True(t, BenjaminiHochberg(ps, tc.q)[0], "floor %v of %d resamples among %d tests", ps[0], n, tc.tests)
			ps[0] = PFloor(n - 2)
			assert.False(t, BenjaminiHochberg(ps, tc.q)[0], "floor %v of %d resamples among %d tests", ps[0], n-2, tc.tests)
		})
	}
}

// TestConstantEstimate: measurements that are all the same value in both
// versions (an exact unit that did not move) give an estimate marked
// Constant with no change, a point interval and p = 1; any difference
// between the versions, or any spread, is not constant.
func TestConstantEstimate(t *testing.T) {
	h := func(vs ...float64) Hierarchy { return Hierarchy{{vs[:len(vs)/2]}, {vs[len(vs)/2:]}} }
	for _, tc := range []struct {
		name       string
		base, head Hierarchy
		want       bool
	}{
		{"same value everywhere", h(64, 64, 64, 64), h(64, 64, 64, 64), true},
		{"zero everywhere", h(0, 0, 0, 0), h(0, 0, 0, 0), true},
		{"moved", h(64, 64, 64, 64), h(65, 65, 65, 65), false},
		{"spread", h(64, 64, 64, 65), h(64, 64, 64, 64), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Compare(tc.base, tc.head, Options{Seed: 1, Resamples: 100})
			require.NoError(t, err)
			assert.Equal(t, tc.want, e.Constant)
			if tc.want {
				assert.Equal(t, Estimate{BaseMedian: e.BaseMedian, HeadMedian: e.BaseMedian, BaseN: 4, HeadN: 4, P: 1, Constant: true}, e)
			}
		})
	}
}
