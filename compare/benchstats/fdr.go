package benchstats

import (
	"cmp"
	"math"
	"slices"
)

// BootstrapP returns the two-sided p-value of the bootstrap distribution
// changes (the resampled relative changes, in any order) against "no
// change":
//
//	p = min(1, 2 · (1 + min(#{c ≤ 0}, #{c ≥ 0})) / (1 + len(changes)))
//
// A resample with a change of exactly 0 counts on both sides, so identical
// versions give 1. The +1 terms keep p above 0: with 10,000 resamples the
// smallest p is 2/10,001 ≈ 0.0002, reached when every resample lies on one
// side of 0 (for the hierarchical bootstrap with 3 trials, when the change
// has one sign in every resampled combination of trials and runs: [PFloor];
// [ResamplesFor] says how many resamples a correction over many tests
// needs). It returns 1 for no resamples.
//
// The p-value and the percentile interval come from the same resamples: the
// interval at confidence c excludes 0 exactly when at most (1−c)/2 of the
// resamples lie on one side of 0, which is when p ≤ 1−c up to the +1 terms.
func BootstrapP(changes []float64) float64 {
	if len(changes) == 0 {
		return 1
	}
	var le, ge int
	for _, c := range changes {
		if c <= 0 {
			le++
		}
		if c >= 0 {
			ge++
		}
	}
	p := 2 * float64(1+min(le, ge)) / float64(1+len(changes))
	return min(1, p)
}

// PFloor returns the smallest p-value [BootstrapP] gives for n resamples,
// 2/(n+1): the value when every resample lies on one side of 0.
func PFloor(n int) float64 { return 2 / float64(n+1) }

// ResamplesFor returns the fewest resamples whose smallest p-value
// ([PFloor]) passes Benjamini–Hochberg at false discovery rate q among
// tests tests on its own (rank 1, where the procedure asks p ≤ q/tests):
// ⌈2·tests/q⌉. With fewer, a change whose every resample lies beyond 0
// (however large, and however narrow its interval) could not be
// significant: 10,000 resamples serve at most 250 tests at q = 0.05. The
// resamples of the interval need not grow with the suite; only the
// p-values at their floor need these, so a caller resamples those again
// ([Options.Resamples]) once it knows the number of tests.
func ResamplesFor(tests int, q float64) int {
	return int(math.Ceil(2 * float64(tests) / q))
}

// AdjustBH returns the Benjamini–Hochberg adjusted p-values (q-values) of
// ps: adjusted[i] is the smallest false discovery rate at which ps[i] is
// rejected, min over the ranks j ≥ rank(i) of m·p_(j)/j, at most 1. A NaN
// p-value is treated as 1. ps is not modified. Tied p-values get the same
// adjusted value (the minimum runs from the largest rank down, and the
// tie with the higher rank has the smaller m·p/j).
func AdjustBH(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	p := func(i int) float64 {
		if math.IsNaN(ps[i]) {
			return 1
		}
		return ps[i]
	}
	// Sort by p-value, ties by index, so the result does not depend on the
	// sort algorithm.
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(p(a), p(b)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	adj := make([]float64, m)
	run := 1.0
	for k := m - 1; k >= 0; k-- {
		i := idx[k]
		run = min(run, p(i)*float64(m)/float64(k+1))
		adj[i] = run
	}
	return adj
}

// BenjaminiHochberg applies the Benjamini–Hochberg step-up procedure at
// false discovery rate q to ps and reports which hypotheses are rejected
// (rejected[i] for ps[i]): the k smallest p-values, where k is the largest
// rank with p_(k) ≤ k·q/m. Among the rejected hypotheses the expected
// share of true nulls is at most q (for independent or positively
// dependent tests); when every hypothesis is null, the chance that any is
// rejected is at most q. A NaN p-value is never rejected.
func BenjaminiHochberg(ps []float64, q float64) []bool {
	adj := AdjustBH(ps)
	rej := make([]bool, len(ps))
	for i, a := range adj {
		rej[i] = !math.IsNaN(ps[i]) && a <= q
	}
	return rej
}

// ExpectedFalseAlarms returns the expected number of false alarms of a run
// that compared its benchmarks with the false discovery rate controlled at
// q and flagged flagged of them as definite changes: q·flagged, the share q
// of the flagged ones that may be noise; and q when none was flagged, the
// chance that a run in which nothing changed raises one (for a family of
// independent tests the expected count under no change is q/(1−q), 5%
// more at q = 0.05). Use [UncorrectedFalseAlarms] for what the same run
// would expect without the correction.
func ExpectedFalseAlarms(q float64, flagged int) float64 {
	return q * float64(max(flagged, 1))
}

// UncorrectedFalseAlarms returns the expected number of false alarms among
// tests hypothesis tests each taken at confidence (such as 0.99), without
// a correction for their number: tests·(1−confidence). Fifty benchmarks
// at 95% raise 2.5 by chance in every run.
func UncorrectedFalseAlarms(tests int, confidence float64) float64 {
	return float64(tests) * (1 - confidence)
}
