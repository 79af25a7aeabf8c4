package detect

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// EDivisiveOptions are the parameters of [ChangePoints];
// [DefaultEDivisiveOptions] holds the usual values. Every field but Seed
// must be set: the zero value is not valid.
type EDivisiveOptions struct {
	// Significance is the permutation test's level: a candidate change
	// point is kept when its p-value is at most this (0.05).
	Significance float64 `json:"significance"`
	// Permutations is the number of random permutations of the
	// permutation test (199, so the smallest p-value is 0.005).
	Permutations int `json:"permutations"`
	// MinSize is the fewest points a segment may hold (5): no change point
	// lies closer than MinSize to the series' ends or to another one.
	MinSize int `json:"min_size"`
	// Alpha is the exponent of the distances, in (0, 2) (1, the energy
	// distance: changes in the mean and in the spread both count).
	Alpha float64 `json:"alpha"`
	// Seed seeds the permutations: the same series and seed give the
	// same change points.
	Seed uint64 `json:"seed"`
}

// DefaultEDivisiveOptions are the values MongoDB's change-point service
// started from (Daly et al., ICPE 2020): α = 1 and a 5% level, with 199
// permutations and segments of at least 5 commits.
var DefaultEDivisiveOptions = EDivisiveOptions{
	Significance: 0.05,
	Permutations: 199,
	MinSize:      5,
	Alpha:        1,
}

// Check reports the first invalid field of o, naming it.
func (o EDivisiveOptions) Check() error {
	switch {
	case math.IsNaN(o.Significance) || o.Significance <= 0 || o.Significance >= 1:
		return invalid(FieldEDivisiveSignificance, "is %v; it must lie in (0, 1), such as 0.05", o.Significance)
	case o.Permutations < 1:
		return invalid(FieldEDivisivePermutations, "is %d; it must be at least 1, such as 199", o.Permutations)
	case o.MinSize < 2:
		return invalid(FieldEDivisiveMinSize, "is %d; it must be at least 2, such as 5", o.MinSize)
	case math.IsNaN(o.Alpha) || o.Alpha <= 0 || o.Alpha >= 2:
		return invalid(FieldEDivisiveAlpha, "is %v; it must lie in (0, 2), such as 1", o.Alpha)
	}
	return nil
}

// A ChangePoint is a change in a series' distribution that [ChangePoints]
// found.
type ChangePoint struct {
	// Index is the first point after the change.
	Index int `json:"index"`
	// Q is the divergence statistic Q̂ of the split (see the package
	// documentation); larger is a clearer change.
	Q float64 `json:"q"`
	// PValue is the permutation test's p-value when the change point was
	// accepted.
	PValue float64 `json:"p_value"`
	// Before and After are the means of the final segments before and
	// after Index.
	Before float64 `json:"before"`
	// After is the mean of the segment that starts at Index.
	After float64 `json:"after"`
}

// ChangePoints finds change points in values by E-divisive means (Matteson
// and James 2014), the hierarchical divisive method with a permutation
// test, as described in the package documentation. It returns the change
// points by index; none when values has fewer than 2×MinSize points. It
// fails only on invalid options or a value that is not finite. The same
// values and options give the same result. Its cost is
// O(Permutations × n log n) per change point found, plus one more round for
// the split that is not significant, for n = len(values) and α = 1
// (O(Permutations × n²) for other α): about 10ms for 200 commits.
func ChangePoints(values []float64, opt EDivisiveOptions) ([]ChangePoint, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("detect: point %d: %v is not finite", i, v)
		}
	}
	e := &edivisive{opt: opt, rng: rand.New(rand.NewPCG(opt.Seed, 0x6564697673)), bounds: []int{0, len(values)}} // "edivs"
	e.items = make([]item, len(values))
	for i, v := range values {
		e.items[i].v = v
	}
	var found []ChangePoint
	for {
		// The best split of every current segment; the largest Q̂ is the
		// candidate (ties: the earlier segment).
		e.rank()
		best, bestQ, seg := -1, 0.0, -1
		for k := 0; k+1 < len(e.bounds); k++ {
			tau, q := e.split(e.items[e.bounds[k]:e.bounds[k+1]])
			if tau >= 0 && (best < 0 || q > bestQ) {
				best, bestQ, seg = e.bounds[k]+tau, q, k
			}
		}
		if best < 0 {
			break
		}
		p := e.pValue(bestQ)
		if p > opt.Significance {
			break
		}
		found = append(found, ChangePoint{Index: best, Q: bestQ, PValue: p})
		e.bounds = append(e.bounds[:seg+1], append([]int{best}, e.bounds[seg+1:]...)...)
	}
	out := make([]ChangePoint, 0, len(found))
	for k := 1; k+1 < len(e.bounds); k++ {
		for _, c := range found {
			if c.Index == e.bounds[k] {
				c.Before = mean(values[e.bounds[k-1]:e.bounds[k]])
				c.After = mean(values[e.bounds[k]:e.bounds[k+1]])
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// edivisive is the state of one ChangePoints run.
type edivisive struct {
	opt    EDivisiveOptions
	rng    *rand.Rand
	bounds []int  // the segments' starts, then len(values)
	items  []item // the values, in each segment's current order
	tree   fenwick
}

// An item is a value and its rank among the values of its segment (ties
// ranked by position), which shuffling within the segment keeps.
type item struct {
	v float64
	r int
}

// rank sets the ranks of the items of each segment.
func (e *edivisive) rank() {
	for k := 0; k+1 < len(e.bounds); k++ {
		seg := e.items[e.bounds[k]:e.bounds[k+1]]
		idx := make([]int, len(seg))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(seg[a].v, seg[b].v) })
		for r, i := range idx {
			seg[i].r = r
		}
	}
}

// split returns the index in x (a segment) that splits it into the two
// parts of largest Q̂, each at least MinSize long, and that Q̂; -1 when x
// is too short to split. Ties go to the smaller index. Cost
// O(len(x)·log len(x)) for α = 1, O(len(x)²) otherwise.
func (e *edivisive) split(x []item) (int, float64) {
	n, m := len(x), e.opt.MinSize
	if n < 2*m {
		return -1, 0
	}
	if e.opt.Alpha == 1 {
		return e.split1(x)
	}
	return e.splitPow(x, e.opt.Alpha)
}

// splitPow is split for any α, by the incremental sums of the distances:
// O(len(x)²).
func (e *edivisive) splitPow(x []item, alpha float64) (int, float64) {
	n, m := len(x), e.opt.MinSize
	dist := func(a, b item) float64 { return math.Pow(math.Abs(a.v-b.v), alpha) }
	// Sums of the distances within the left part x[:tau], within the
	// right part x[tau:], and between them.
	var within, right, between float64
	for i := 0; i < m; i++ {
		for j := i + 1; j < m; j++ {
			within += dist(x[i], x[j])
		}
		for j := m; j < n; j++ {
			between += dist(x[i], x[j])
		}
	}
	for i := m; i < n; i++ {
		for j := i + 1; j < n; j++ {
			right += dist(x[i], x[j])
		}
	}
	best, bestQ := -1, 0.0
	for tau := m; ; tau++ {
		if q := qhat(tau, n-tau, within, right, between); best < 0 || q > bestQ {
			best, bestQ = tau, q
		}
		if tau == n-m {
			return best, bestQ
		}
		// Move x[tau] from the right part to the left one.
		var toLeft, toRight float64
		for i := 0; i < tau; i++ {
			toLeft += dist(x[i], x[tau])
		}
		for j := tau + 1; j < n; j++ {
			toRight += dist(x[tau], x[j])
		}
		within += toLeft
		right -= toRight
		between += toRight - toLeft
	}
}

// split1 is split for α = 1, where the sum of |a − x_j| over a set of
// values is a·(number below a) − (sum below a) + (sum above a) −
// a·(number above a): Fenwick trees over the ranks, one for the left part
// and one for the right, give each in O(log n).
func (e *edivisive) split1(x []item) (int, float64) {
	n, m := len(x), e.opt.MinSize
	f := &e.tree
	f.reset(n)
	// The sum over all pairs, from the sorted values: the k-th smallest
	// (from 0) is subtracted by the k below it and subtracts the n−1−k
	// above it.
	sorted := make([]float64, n)
	for _, it := range x {
		sorted[it.r] = it.v
		f.update(right, it.r, 1, it.v)
	}
	var pairs float64
	for k, v := range sorted {
		pairs += v * float64(2*k-n+1)
	}
	within, rest := 0.0, pairs
	best, bestQ := -1, 0.0
	for tau := 0; tau < n-m; tau++ {
		// Move x[tau] from the right part to the left one.
		it := x[tau]
		f.update(right, it.r, -1, -it.v)
		rest -= f.distSum(right, it)
		within += f.distSum(left, it)
		f.update(left, it.r, 1, it.v)
		if a := tau + 1; a >= m {
			if q := qhat(a, n-a, within, rest, pairs-within-rest); best < 0 || q > bestQ {
				best, bestQ = a, q
			}
		}
	}
	return best, bestQ
}

// qhat is Q̂ of a split into a left part of a points and a right one of b
// points with the given sums of distances within each and between them.
func qhat(a, b int, within, right, between float64) float64 {
	fa, fb := float64(a), float64(b)
	return fa * fb / (fa + fb) * (2*between/(fa*fb) - within/(fa*(fa-1)/2) - right/(fb*(fb-1)/2))
}

// The two sides of a fenwick.
const (
	left  = 0
	right = 1
)

// fenwick holds, for the left and the right part of a split, binary
// indexed trees of the number and the sum of the values at each rank.
type fenwick struct {
	n          int
	count, sum [2][]float64 // 1-based
}

func (f *fenwick) reset(n int) {
	f.n = n
	for s := range 2 {
		f.count[s] = append(f.count[s][:0], make([]float64, n+1)...)
		f.sum[s] = append(f.sum[s][:0], make([]float64, n+1)...)
	}
}

// update adds dc to the number and dv to the sum at rank r of side s.
func (f *fenwick) update(s, r int, dc, dv float64) {
	for i := r + 1; i <= f.n; i += i & -i {
		f.count[s][i] += dc
		f.sum[s][i] += dv
	}
}

// below returns the number and the sum of the values of side s ranked
// below r.
func (f *fenwick) below(s, r int) (float64, float64) {
	var c, v float64
	for i := r; i > 0; i -= i & -i {
		c += f.count[s][i]
		v += f.sum[s][i]
	}
	return c, v
}

// distSum returns Σ|it.v − x| over the values x of side s, which does not
// hold it.
func (f *fenwick) distSum(s int, it item) float64 {
	cb, sb := f.below(s, it.r)
	ct, st := f.below(s, f.n)
	return it.v*cb - sb + (st - sb) - it.v*(ct-cb)
}

// pValue runs the permutation test of a candidate whose statistic is q:
// each permutation shuffles the points within every current segment and
// takes the largest Q̂ of the segments' best splits; the p-value is
// (1 + permutations reaching q) / (1 + Permutations). It stops early once
// the p-value must exceed Significance, and then returns the p-value the
// remaining permutations could at least give.
func (e *edivisive) pValue(q float64) float64 {
	r := e.opt.Permutations
	perm := slices.Clone(e.items)
	reached := 0
	for range r {
		top := math.Inf(-1)
		for k := 0; k+1 < len(e.bounds); k++ {
			seg := perm[e.bounds[k]:e.bounds[k+1]]
			e.rng.Shuffle(len(seg), func(i, j int) { seg[i], seg[j] = seg[j], seg[i] })
			if tau, qp := e.split(seg); tau >= 0 {
				top = max(top, qp)
			}
		}
		if top >= q {
			reached++
			if p := float64(1+reached) / float64(1+r); p > e.opt.Significance {
				return p
			}
		}
	}
	return float64(1+reached) / float64(1+r)
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
