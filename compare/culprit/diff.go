package culprit

import (
	"cmp"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// Measurements are one side's per-operation function profiles of one
// benchmark, one per measurement, in the shape of the comparison's
// measurements ([benchstats.Hierarchy]): trial → run → measurement. Each
// map holds the per-operation value of each function (instructions, or
// nanoseconds of CPU time), keyed by name; a function missing from a map
// had 0 in that measurement.
type Measurements [][][]map[string]float64

// Len returns the number of measurements.
func (m Measurements) Len() int {
	n := 0
	for _, t := range m {
		for _, r := range t {
			n += len(r)
		}
	}
	return n
}

// The kinds of a [Culprit]'s change.
const (
	// KindChanged: the function ran in both versions with a clearly
	// positive cost in the base; its relative change is Relative.
	KindChanged = "changed"
	// KindVanished: the function's cost fell to nearly nothing (at most
	// 5% of its base): it was inlined away by hand, or its work removed.
	KindVanished = "vanished"
	// KindNew: the function had nearly no cost in the base (at most 5% of
	// its head) and a clearly positive one in the head: new code, or code
	// moved out of another function.
	KindNew = "new"
	// KindUnclear: neither version gives the function a clearly positive
	// cost (the runtime's work per operation, as a difference of two
	// iteration counts, can be tiny or negative): it changed, but no
	// relative change can be formed.
	KindUnclear = "unclear"
)

// A Culprit is one function whose change is beyond its own noise: its
// part in a benchmark's change.
type Culprit struct {
	// Function is the function, with its package path, named as
	// callgraph.NormalizeName names it (a generic function's type
	// arguments are "[...]").
	Function string `json:"function"`
	// Base is its per-operation value in base (the median over the
	// base's measurements).
	Base float64 `json:"base"`
	// Head is its per-operation value in head (the median).
	Head float64 `json:"head"`
	// Delta is Head − Base.
	Delta float64 `json:"delta"`
	// Relative is Delta / Base for a function of Kind KindChanged or
	// KindVanished, whose base is clearly positive; omitted otherwise.
	Relative *float64 `json:"relative,omitempty"`
	// Kind says how the function changed: KindChanged, KindVanished,
	// KindNew or KindUnclear.
	Kind string `json:"kind"`
	// Share is the function's part of the total movement: |Delta| over
	// the sum of |Delta| of all culprits, so the shares add up to 1
	// whatever the signs.
	Share float64 `json:"share"`
	// P is the p-value of the function's change (Welch's t-test over the
	// measurements of both versions); the culprits are the functions
	// whose p-values pass the Benjamini–Hochberg correction at
	// [Options.FDR].
	P float64 `json:"p"`
	// InApp says whether the application runs the function (the
	// application's reference profile, or its function set, has it).
	InApp bool `json:"in_application"`
	// AppShare is the function's share of the application's CPU time
	// (callgraph.Application.Shares); omitted when 0.
	AppShare float64 `json:"app_share,omitempty"`
	// AppFloor marks an AppShare that is the floor of a function the
	// application ran for less than one sample of its profile.
	AppFloor bool `json:"app_share_floor,omitempty"`
	// FoldedInto names the changed functions a vanished or new
	// function's change was folded into for the application impact: the
	// callers that absorbed an inlined-away function, or the functions a
	// new function's code came from. Sorted; omitted when none.
	FoldedInto []string `json:"folded_into,omitempty"`
	// AppContext names, for a function outside the project that the
	// application runs under project functions (the runtime's
	// allocator under an Encode), those of them the benchmark runs too:
	// the calling context the application impact weighed its change in.
	// Sorted; omitted when the function keeps its whole AppShare.
	AppContext []string `json:"app_context,omitempty"`
	// AppContextShare is the application's share of CPU time in the
	// function under the functions of AppContext: its weight in the
	// application impact instead of AppShare. Omitted with AppContext.
	AppContextShare float64 `json:"app_context_share,omitempty"`
}

// A Diff is the per-function difference of a benchmark's two versions,
// from every measurement of each.
type Diff struct {
	// Base is the benchmark's per-operation total in base (the median
	// of the measurements' totals).
	Base float64 `json:"base"`
	// Head is the benchmark's per-operation total in head.
	Head float64 `json:"head"`
	// Culprits are the functions whose change is beyond their noise, by
	// the size of their change (|Delta|), largest first, whatever its
	// sign; ties by function name.
	Culprits []Culprit `json:"culprits"`
	// AppRelevantShare is the part of the movement in functions the
	// application runs: the sum of the Share of culprits with InApp.
	AppRelevantShare float64 `json:"app_relevant_share"`
	// Tested counts the functions whose values differed between the
	// versions by at least [Options.MinDelta] and a ten-thousandth of the
	// benchmark's total; the others did not move.
	Tested int `json:"tested"`
	// Noise counts the tested functions whose change is within their
	// noise: not culprits.
	Noise int `json:"noise"`
	// TooFew is set when a version has fewer than two measurements: a
	// function's noise cannot be measured, so none is a culprit.
	TooFew bool `json:"too_few,omitempty"`
}

// Options configure [Explain].
type Options struct {
	// App is the application's reference profile; nil means no
	// application impact.
	App *callgraph.Application
	// Confidence is the level of the application impact's interval;
	// 0 means benchstats.DefaultConfidence.
	Confidence float64
	// Resamples is the number of bootstrap resamples of the interval;
	// 0 means benchstats.DefaultResamples.
	Resamples int
	// Seed seeds the resampling: the seed of the benchmark's own
	// estimate draws the same trials, runs and measurements.
	Seed uint64
	// FDR is the false discovery rate of the functions called culprits;
	// 0 means 1 − Confidence.
	FDR float64
	// MinDelta is the smallest per-operation change of a function that
	// is tested (0.5 for instruction counts: below it, the rounding of
	// two counts); 0 means any.
	MinDelta float64
	// Benchmark is the benchmark's own estimate (its relative change and
	// interval): when no function changed beyond its noise, a changed
	// benchmark's application impact falls back to its share of the
	// application times its change (AppImpact.Basis BasisBenchmark).
	Benchmark *benchstats.Estimate
	// Changed says the benchmark's verdict is a change (definite or
	// potential), which the fallback needs.
	Changed bool
	// BenchmarkShare is the benchmark's share of the application: its
	// attributed impact (callgraph.Impact.Attributed, the application's
	// time charged to the project functions the benchmark covers, the
	// runtime's work under them included), not the flat reference impact,
	// which counts a runtime function the benchmark runs at its whole
	// share of the application, through callers the benchmark never runs
	// too (a copy-heavy benchmark whose application copied mostly
	// elsewhere read 67.7% flat against 15.2% attributed); 0 means the
	// share of the application's CPU time in the functions the benchmark's
	// base profiles run, a function outside the project counted under the
	// project functions the benchmark runs (AppImpact.BenchmarkShare).
	BenchmarkShare float64
}

func (o Options) confidence() float64 {
	return cmp.Or(o.Confidence, benchstats.DefaultConfidence)
}

// Vanished and new functions: a cost at most this fraction of the other
// version's.
const vanishedFraction = 0.05

// materialFraction is the smallest change of a function, as a fraction of
// the benchmark's total, that is tested.
const materialFraction = 1e-4

// fn is one function's measurements in both versions.
type fn struct {
	name   string
	b, h   []float64 // by measurement, flattened in hierarchy order
	mb, mh float64   // medians
	p      float64
	kind   string
}

// Explain compares the per-function profiles of every measurement of a
// benchmark's two versions: it decides per function whether it changed
// beyond its own noise, ranks those culprits by the size of their change
// and, with opt.App, estimates the application impact (see the package
// documentation for the method). The AppImpact is nil without opt.App.
func Explain(base, head Measurements, opt Options) (Diff, *AppImpact) {
	base, head = normalized(base), normalized(head)
	bf, hf := flatten(base), flatten(head)
	names := map[string]bool{}
	for _, ms := range [][]map[string]float64{bf, hf} {
		for _, m := range ms {
			for f := range m {
				names[f] = true
			}
		}
	}
	bt, ht := totals(bf), totals(hf)
	d := Diff{Base: median(bt), Head: median(ht), TooFew: len(bf) < 2 || len(hf) < 2}
	floor := max(opt.MinDelta, materialFraction*max(math.Abs(d.Base), math.Abs(d.Head)))
	var tested []*fn
	all := map[string]*fn{}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		f := &fn{name: name, b: column(bf, name), h: column(hf, name)}
		f.mb, f.mh = median(f.b), median(f.h)
		all[name] = f
		if d.TooFew || math.Abs(f.mh-f.mb) < floor || f.mh == f.mb {
			continue
		}
		f.p = welchP(f.b, f.h)
		tested = append(tested, f)
	}
	d.Tested = len(tested)
	ps := make([]float64, len(tested))
	for i, f := range tested {
		ps[i] = f.p
	}
	fdr := cmp.Or(opt.FDR, 1-opt.confidence())
	var changed []*fn
	for i, sig := range benchstats.BenjaminiHochberg(ps, fdr) {
		if sig {
			changed = append(changed, tested[i])
		} else {
			d.Noise++
		}
	}
	total := 0.0
	for _, f := range changed {
		f.kind = kindOf(f)
		total += math.Abs(f.mh - f.mb)
	}
	for _, f := range changed {
		c := Culprit{Function: f.name, Base: f.mb, Head: f.mh, Delta: f.mh - f.mb, Kind: f.kind, P: f.p, Share: math.Abs(f.mh-f.mb) / total}
		if f.kind == KindChanged || f.kind == KindVanished {
			r := f.mh/f.mb - 1
			c.Relative = &r
		}
		if s, ok := opt.App.Share(f.name); ok {
			c.InApp, c.AppShare, c.AppFloor = true, s, opt.App.Floored[f.name]
			d.AppRelevantShare += c.Share
		}
		d.Culprits = append(d.Culprits, c)
	}
	if opt.App == nil {
		sortCulprits(d.Culprits)
		return d, nil
	}
	m := newModel(changed, all, opt, bf, hf)
	for i := range d.Culprits {
		c := &d.Culprits[i]
		c.FoldedInto = m.folded[c.Function]
		ctx := m.contexts[c.Function]
		c.AppContext, c.AppContextShare = ctx.owners, ctx.share
	}
	sortCulprits(d.Culprits)
	return d, m.impact(d, base, head, opt)
}

// sortCulprits orders culprits by |Delta|, largest first, then by name.
func sortCulprits(cs []Culprit) {
	slices.SortFunc(cs, func(x, y Culprit) int {
		return cmp.Or(cmp.Compare(math.Abs(y.Delta), math.Abs(x.Delta)), cmp.Compare(x.Function, y.Function))
	})
}

// kindOf classifies a changed function (see the Kind constants).
func kindOf(f *fn) string {
	switch bp, hp := clearlyPositive(f.b, f.mb), clearlyPositive(f.h, f.mh); {
	case bp && f.mh <= vanishedFraction*f.mb:
		return KindVanished
	case bp:
		return KindChanged
	case hp && f.mb <= vanishedFraction*f.mh:
		return KindNew
	}
	return KindUnclear
}

// clearlyPositive reports whether the values xs with median m are a
// clearly positive cost: every one positive, and their spread at most
// half the median.
func clearlyPositive(xs []float64, m float64) bool {
	if !(m > 0) || len(xs) == 0 {
		return false
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	return lo > 0 && hi-lo <= 0.5*m
}

// welchP returns the two-sided p-value of Welch's t-test that a and b
// have the same mean: 0 when neither varies and their means differ, 1
// when neither varies and they are equal.
func welchP(a, b []float64) float64 {
	ma, va := stat.MeanVariance(a, nil)
	mb, vb := stat.MeanVariance(b, nil)
	sa, sb := va/float64(len(a)), vb/float64(len(b))
	if sa+sb == 0 {
		if ma == mb {
			return 1
		}
		return 0
	}
	t := math.Abs(mb-ma) / math.Sqrt(sa+sb)
	df := (sa + sb) * (sa + sb) / (sa*sa/float64(len(a)-1) + sb*sb/float64(len(b)-1))
	return math.Min(1, 2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(t))
}

// normalized returns m with its functions named as
// callgraph.NormalizeName names them, the values of functions that share
// a name summed: a generic function's lines credited by source
// ("p.items[...].find") and by symbol ("p.items[go.shape.int].find") are
// one function, as in the application's profile.
func normalized(m Measurements) Measurements {
	names := map[string]string{}
	out := make(Measurements, len(m))
	for t, tr := range m {
		out[t] = make([][]map[string]float64, len(tr))
		for r, run := range tr {
			out[t][r] = make([]map[string]float64, len(run))
			for i, p := range run {
				q := make(map[string]float64, len(p))
				for f, v := range p {
					n, ok := names[f]
					if !ok {
						n = callgraph.NormalizeName(f)
						names[f] = n
					}
					q[n] += v
				}
				out[t][r][i] = q
			}
		}
	}
	return out
}

func flatten(m Measurements) []map[string]float64 {
	var out []map[string]float64
	for _, t := range m {
		for _, r := range t {
			out = append(out, r...)
		}
	}
	return out
}

func totals(ms []map[string]float64) []float64 {
	out := make([]float64, len(ms))
	for i, m := range ms {
		for _, v := range m {
			out[i] += v
		}
	}
	return out
}

func column(ms []map[string]float64, name string) []float64 {
	out := make([]float64, len(ms))
	for i, m := range ms {
		out[i] = m[name]
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return benchstats.Median(xs)
}
