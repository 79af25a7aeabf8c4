package benchstats

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"golang.org/x/perf/benchmath"
	"gonum.org/v1/gonum/stat"
)

// A Hierarchy holds one version's measurements of one benchmark and unit
// in the shape RMIT produced them: h[t][r] are the iterations of run r of
// trial t.
type Hierarchy [][][]float64

// Values returns all measurements, trial by trial, run by run.
func (h Hierarchy) Values() []float64 { return flatten(h) }

// flatten returns the leaves of a trials × runs × measurements hierarchy,
// trial by trial, run by run.
func flatten[T any](h [][][]T) []T {
	var vs []T
	for _, t := range h {
		for _, r := range t {
			vs = append(vs, r...)
		}
	}
	return vs
}

// Len returns the number of measurements.
func (h Hierarchy) Len() int {
	n := 0
	for _, t := range h {
		for _, r := range t {
			n += len(r)
		}
	}
	return n
}

// Trials returns the number of trials that hold at least one measurement.
func (h Hierarchy) Trials() int {
	n := 0
	for _, t := range h {
		for _, r := range t {
			if len(r) > 0 {
				n++
				break
			}
		}
	}
	return n
}

// compact returns h without empty runs and trials.
func (h Hierarchy) compact() Hierarchy {
	var c Hierarchy
	for _, t := range h {
		var ct [][]float64
		for _, r := range t {
			if len(r) > 0 {
				ct = append(ct, r)
			}
		}
		if len(ct) > 0 {
			c = append(c, ct)
		}
	}
	return c
}

// Options configure the bootstrap. The zero value means the defaults.
type Options struct {
	// Resamples is the number of bootstrap resamples; 0 means 10,000.
	Resamples int
	// Confidence is the confidence level of the interval, in (0, 1);
	// 0 means 0.99.
	Confidence float64
	// Seed seeds the random source; the same seed and data give the same
	// interval.
	Seed uint64
}

// DefaultResamples and DefaultConfidence are the study's settings.
const (
	DefaultResamples  = 10000
	DefaultConfidence = 0.99
)

func (o Options) resamples() int {
	if o.Resamples == 0 {
		return DefaultResamples
	}
	return o.Resamples
}

func (o Options) confidence() float64 {
	if o.Confidence == 0 {
		return DefaultConfidence
	}
	return o.Confidence
}

func (o Options) check() error {
	if o.Resamples < 0 {
		return fmt.Errorf("benchstats: Resamples is %d; it must be positive (or 0 for %d)", o.Resamples, DefaultResamples)
	}
	if c := o.Confidence; c != 0 && !(c > 0 && c < 1) {
		return fmt.Errorf("benchstats: Confidence is %v; it must be between 0 and 1, such as 0.99", c)
	}
	return nil
}

// An Interval is a closed interval of relative changes.
type Interval struct {
	// Low is the lower bound.
	Low float64 `json:"low"`
	// High is the upper bound.
	High float64 `json:"high"`
}

// Width returns High − Low: the instability of the estimate.
func (i Interval) Width() float64 { return i.High - i.Low }

// Contains reports whether x lies in the interval.
func (i Interval) Contains(x float64) bool { return i.Low <= x && x <= i.High }

// Overlaps reports whether the intervals share a point.
func (i Interval) Overlaps(j Interval) bool { return i.Low <= j.High && j.Low <= i.High }

// An Estimate is the relative change of one benchmark and unit between
// two versions.
type Estimate struct {
	// Change is median(head)/median(base) − 1.
	Change float64 `json:"change"`
	// CI is the bootstrap confidence interval of Change.
	CI Interval `json:"ci"`
	// BaseMedian is the median of all the base's measurements.
	BaseMedian float64 `json:"base_median"`
	// HeadMedian is the median of all the head's measurements.
	HeadMedian float64 `json:"head_median"`
	// BaseN counts the base's measurements.
	BaseN int `json:"base_n"`
	// HeadN counts the head's measurements.
	HeadN int `json:"head_n"`
	// P is the two-sided p-value of the hierarchical bootstrap: twice the
	// smaller share of resampled changes on either side of 0 (see
	// [BootstrapP]). It is what the run's false-discovery-rate correction
	// ([BenjaminiHochberg]) is applied to.
	P float64 `json:"p"`
	// PResamples is the number of resamples P comes from when it is more
	// than the interval's (Options.Resamples): a p-value at its floor
	// ([PFloor]) resampled again so that it can pass a correction over many
	// tests ([ResamplesFor]); 0, omitted, when P comes from the interval's
	// resamples.
	PResamples int `json:"p_resamples,omitempty"`
	// Constant is set when every measurement of both versions has the same
	// value: the unit did not move and has no noise (such as the allocs/op
	// of a benchmark that allocates the same in both versions). Change is
	// then 0, the interval [0, 0] and P 1, and the estimate is no test: the
	// false-discovery-rate correction leaves it out of its count, as no
	// data could have made it significant.
	Constant bool `json:"constant,omitempty"`
}

// Instability returns the width of the confidence interval.
func (e Estimate) Instability() float64 { return e.CI.Width() }

// ErrNoData is returned when a version has no measurements.
var ErrNoData = errors.New("benchstats: a version has no measurements")

// ErrZeroMedian is returned when the base median is zero and the head's
// is not, so a relative change is undefined. (Both zero is no change.)
var ErrZeroMedian = errors.New("benchstats: the base median is 0, so the relative change is undefined")

// Median returns the median of xs (the mean of the two middle values when
// len(xs) is even). It returns NaN for no values. xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return sortedMedian(s)
}

func sortedMedian(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Compare estimates the relative change from base to head with a
// hierarchical bootstrap confidence interval (see the package
// documentation).
func Compare(base, head Hierarchy, opt Options) (Estimate, error) {
	return estimate(base, head, opt, true)
}

// CompareFlat is [Compare] with an ordinary bootstrap that resamples all
// measurements of each version independently, ignoring trials and runs.
func CompareFlat(base, head Hierarchy, opt Options) (Estimate, error) {
	return estimate(base, head, opt, false)
}

func estimate(base, head Hierarchy, opt Options, hier bool) (Estimate, error) {
	if err := opt.check(); err != nil {
		return Estimate{}, err
	}
	base, head = base.compact(), head.compact()
	bv, hv := base.Values(), head.Values()
	if len(bv) == 0 || len(hv) == 0 {
		return Estimate{}, ErrNoData
	}
	for _, v := range append(slices.Clone(bv), hv...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Estimate{}, fmt.Errorf("benchstats: measurement %v is not finite", v)
		}
	}
	e := Estimate{BaseMedian: Median(bv), HeadMedian: Median(hv), BaseN: len(bv), HeadN: len(hv)}
	if constant(bv, hv) {
		// Every resample would be the same: no change, no spread.
		e.P, e.Constant = 1, true
		return e, nil
	}
	var ok bool
	if e.Change, ok = change(e.BaseMedian, e.HeadMedian); !ok {
		return Estimate{}, ErrZeroMedian
	}

	rng := NewRand(opt.Seed)
	n := opt.resamples()
	changes := make([]float64, 0, n)
	// Resamples draw ranks instead of values, so that a resample's median
	// is found by counting in O(len) instead of sorting; the draws, and so
	// the medians, are the same as drawing the values.
	br, bsorted := ranked(base)
	hr, hsorted := ranked(head)
	bflat, hflat := br.values(), hr.values()
	bs := make([]int32, 0, len(bv))
	hs := make([]int32, 0, len(hv))
	bcount := make([]int32, len(bv))
	hcount := make([]int32, len(hv))
	for range n {
		bs, hs = bs[:0], hs[:0]
		if hier {
			bs, hs = resampleHier(rng, br, hr, bs, hs)
		} else {
			bs = resampleFlat(rng, bflat, bs)
			hs = resampleFlat(rng, hflat, hs)
		}
		// A resample whose base median alone is 0 has no relative change;
		// it can only happen when some measurements are 0.
		if c, ok := change(rankMedian(bs, bcount, bsorted), rankMedian(hs, hcount, hsorted)); ok {
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		return Estimate{}, ErrZeroMedian
	}
	slices.Sort(changes)
	e.P = BootstrapP(changes)
	alpha := 1 - opt.confidence()
	e.CI = Interval{
		Low:  stat.Quantile(alpha/2, stat.Empirical, changes, nil),
		High: stat.Quantile(1-alpha/2, stat.Empirical, changes, nil),
	}
	return e, nil
}

// constant reports whether every value of base and head is the same.
func constant(base, head []float64) bool {
	for _, vs := range [][]float64{base, head} {
		for _, v := range vs {
			if v != base[0] {
				return false
			}
		}
	}
	return true
}

// change returns head/base − 1. Two zero medians (a benchmark that
// allocates nothing in either version) are no change; a zero base median
// with a non-zero head has no relative change, and ok is false.
func change(base, head float64) (c float64, ok bool) {
	switch {
	case base == 0 && head == 0:
		return 0, true
	case base == 0:
		return 0, false
	}
	return head/base - 1, true
}

func resampleFlat[T any](rng *rand.Rand, vs, dst []T) []T {
	for range vs {
		dst = append(dst, vs[rng.IntN(len(vs))])
	}
	return dst
}

// ResampleHierarchy appends one hierarchical resample of both versions
// to bs and hs and returns them: the resampling of [Compare]'s interval,
// for a caller that resamples something else shaped like the measurements
// (package culprit resamples each measurement's per-function profile by
// drawing measurement indices). Trials are paired by index while both
// versions have that trial; runs within a drawn trial are paired when both
// versions have the same number of them. rng must be [NewRand]'s.
func ResampleHierarchy[T any](rng *rand.Rand, base, head [][][]T, bs, hs []T) ([]T, []T) {
	return resampleHier(rng, base, head, bs, hs)
}

// NewRand returns the random source [Compare] draws its resamples from
// for seed: a caller resampling with [ResampleHierarchy] and the same
// seed draws the same trials, runs and measurements.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6d626f7074)) } // "mbopt"

// resampleHier draws one hierarchical resample of both versions. Trials
// are paired by index while both versions have that trial; runs within a
// drawn trial are paired when both versions have the same number of them.
func resampleHier[T any](rng *rand.Rand, base, head [][][]T, bs, hs []T) ([]T, []T) {
	nt := max(len(base), len(head))
	for range nt {
		t := rng.IntN(nt)
		bt, ht := trial(base, t, rng), trial(head, t, rng)
		if len(bt) == len(ht) {
			for range len(bt) {
				r := rng.IntN(len(bt))
				bs = resampleFlat(rng, bt[r], bs)
				hs = resampleFlat(rng, ht[r], hs)
			}
			continue
		}
		for range bt {
			bs = resampleFlat(rng, bt[rng.IntN(len(bt))], bs)
		}
		for range ht {
			hs = resampleFlat(rng, ht[rng.IntN(len(ht))], hs)
		}
	}
	return bs, hs
}

// ranks is a [Hierarchy] whose measurements are replaced by their ranks.
type ranks [][][]int32

func (h ranks) values() []int32 { return flatten(h) }

// ranked returns h with each measurement replaced by its position in
// sorted, which holds all of h's measurements in increasing order (equal
// values get distinct positions).
func ranked(h Hierarchy) (ranks, []float64) {
	type pos struct{ t, r, i int }
	var ps []pos
	var vs []float64
	for t, tr := range h {
		for r, run := range tr {
			for i, v := range run {
				ps = append(ps, pos{t, r, i})
				vs = append(vs, v)
			}
		}
	}
	order := make([]int, len(vs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(vs[a], vs[b]) })
	rk := make(ranks, len(h))
	for t, tr := range h {
		rk[t] = make([][]int32, len(tr))
		for r, run := range tr {
			rk[t][r] = make([]int32, len(run))
		}
	}
	sorted := make([]float64, len(vs))
	for k, o := range order {
		p := ps[o]
		rk[p.t][p.r][p.i] = int32(k)
		sorted[k] = vs[o]
	}
	return rk, sorted
}

// rankMedian returns the median of the measurements whose ranks are in
// rs: sorted[rank] is a measurement, count is scratch space of
// len(sorted). It counts instead of sorting, in O(len(rs) + len(sorted)).
func rankMedian(rs, count []int32, sorted []float64) float64 {
	clear(count)
	for _, r := range rs {
		count[r]++
	}
	n := len(rs)
	// The medians are the values at 0-based positions lo and hi of the
	// resample in order (equal for an odd n).
	lo, hi := (n-1)/2, n/2
	var vlo, vhi float64
	seen := 0
	for r, c := range count {
		if c == 0 {
			continue
		}
		next := seen + int(c)
		if seen <= lo && lo < next {
			vlo = sorted[r]
		}
		if seen <= hi && hi < next {
			vhi = sorted[r]
			break
		}
		seen = next
	}
	if lo == hi {
		return vlo
	}
	return (vlo + vhi) / 2
}

// trial returns trial t of h, or a random trial of h when h has fewer
// trials than the other version.
func trial[T any](h [][][]T, t int, rng *rand.Rand) [][]T {
	if t < len(h) {
		return h[t]
	}
	return h[rng.IntN(len(h))]
}

// UTest returns the p-value of a two-sided Mann-Whitney U-test that base
// and head come from the same distribution, as computed by
// golang.org/x/perf/benchmath (benchstat's test). It is 1 when the test
// cannot be computed, such as for identical samples.
func UTest(base, head []float64) float64 {
	t := benchmath.DefaultThresholds
	c := benchmath.AssumeNothing.Compare(
		benchmath.NewSample(slices.Clone(base), &t),
		benchmath.NewSample(slices.Clone(head), &t))
	return c.P
}
