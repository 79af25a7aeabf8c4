package culprit

import (
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// NoImpactShare is the application-relevant share below which a change
// is "likely no application impact": less than a tenth of the
// benchmark's movement lies in functions the application runs.
const NoImpactShare = 0.1

// The bases of an [AppImpact]: what its estimate was made from.
const (
	// BasisFunctions: the functions that changed beyond their noise,
	// each weighed by its share of the application.
	BasisFunctions = "functions"
	// BasisBenchmark: no function changed beyond its noise, but the
	// benchmark did: its share of the application times its change.
	BasisBenchmark = "benchmark"
	// BasisNone: neither a function nor the benchmark changed beyond
	// its noise; the estimate is 0.
	BasisNone = "none"
)

// An AppImpact is the estimated effect of a benchmark's change on the
// application's CPU time.
type AppImpact struct {
	// Estimate is the relative change of the application's CPU time
	// (+0.02: 2% more).
	Estimate float64 `json:"app_impact"`
	// Low is the lower end of the estimate's interval.
	Low float64 `json:"app_impact_low"`
	// High is the upper end of the estimate's interval.
	High float64 `json:"app_impact_high"`
	// Basis says what the estimate was made from: BasisFunctions,
	// BasisBenchmark or BasisNone.
	Basis string `json:"app_impact_basis"`
	// RelevantShare is the Diff's AppRelevantShare.
	RelevantShare float64 `json:"app_relevant_share"`
	// BenchmarkShare is the benchmark's share of the application that
	// the estimate used for the movement it could not pin on a function
	// (Options.BenchmarkShare, or the application's share of the
	// functions the benchmark runs, each outside the project in the
	// calling context the benchmark runs it in: contextShare).
	BenchmarkShare float64 `json:"app_benchmark_share,omitempty"`
	// Unattributed is the part of the movement (a share, 0..1) in
	// culprits whose relative change cannot be formed and that fold into
	// no other function (KindUnclear in a function the application
	// runs, or KindNew with no function of its package that shrank): it
	// enters the estimate as its fraction of the benchmark's total
	// times BenchmarkShare.
	Unattributed float64 `json:"app_unattributed_share,omitempty"`
	// NoImpact marks a change that lies outside the application's
	// functions: with BasisFunctions, RelevantShare below NoImpactShare;
	// with BasisBenchmark, a benchmark that runs nothing of the
	// application; with BasisNone, always.
	NoImpact bool `json:"likely_no_app_impact,omitempty"`
}

// A coef is one function's part in a term: its index in model.fns and
// its coefficient.
type coef struct {
	i int
	c float64
}

// A term is one part of the application impact: the share w of the
// application's CPU time times the relative change Σ c·(head − base) /
// Σ c·base of its functions, or over the benchmark's base total when
// total is set.
type term struct {
	w        float64
	num, den []coef
	total    bool
}

// A model is the application impact as a sum of terms over the changed
// functions' medians, so that a resample recomputes it from its own
// medians.
type model struct {
	fns    []*fn
	idx    map[string]int
	terms  []*term
	folded map[string][]string
	// contexts holds the calling context of each changed external
	// function weighed in it (see contextShare).
	contexts     map[string]callContext
	benchShare   float64
	unattributed float64 // share of the movement
}

// newModel builds the terms (see the package documentation, "Application
// impact") from the changed functions, all functions and the base's and
// the head's flattened measurements: a changed function weighs its own
// relative change by its share of the application in the calling context
// the benchmark runs it in (contextShare); a vanished one folds into the callers that
// absorbed it, weighted by the application's time in it from those
// callers; a new one folds into the functions of its package that shrank;
// what is left is weighed by the benchmark's share of the application.
func newModel(changed []*fn, all map[string]*fn, opt Options, base, head []map[string]float64) *model {
	app := opt.App
	m := &model{idx: map[string]int{}, folded: map[string][]string{}, contexts: map[string]callContext{}, benchShare: opt.BenchmarkShare}
	if m.benchShare <= 0 {
		for _, name := range slices.Sorted(maps.Keys(all)) {
			if all[name].mb > 0 {
				w, _ := contextShare(app, name, base, head)
				m.benchShare += w
			}
		}
		m.benchShare = math.Min(m.benchShare, 1)
	}
	own := map[string]*term{}
	for _, f := range changed {
		if f.kind == KindChanged {
			i := m.use(f)
			w, ctx := contextShare(app, f.name, base, head)
			if ctx.owners != nil {
				m.contexts[f.name] = ctx
			}
			t := &term{w: w, num: []coef{{i, 1}}, den: []coef{{i, 1}}}
			own[f.name] = t
			m.terms = append(m.terms, t)
		}
	}
	var left []*fn
	for _, g := range changed {
		switch g.kind {
		case KindVanished:
			m.foldVanished(g, changed, own, app, base, head)
		case KindNew:
			// A "new" function the base ran (a tiny or noisy base,
			// no new code) is code the application's profile could
			// hold: where it does not, it weighs nothing, as an
			// unclear one does. Which of the two kinds such a
			// function gets flips with the noise of its base.
			if runs(base, g.name) && !inApp(app, g.name) {
				continue
			}
			if !m.foldNew(g, changed, own) {
				left = append(left, g)
			}
		case KindUnclear:
			// A function the application does not run weighs
			// nothing, whatever its base, as a changed one does
			// (its share is 0). New code stays in left (above)
			// although the application's profile, of another
			// version, cannot hold it.
			if inApp(app, g.name) {
				left = append(left, g)
			}
		}
	}
	for _, names := range m.folded {
		slices.Sort(names)
	}
	if len(left) > 0 {
		m.addLeft(changed, left)
	}
	return m
}

// appShare is the share of the application's CPU time in function f (named
// as callgraph.NormalizeName names it, as Explain's names are), 0 for a
// function the application does not run.
func appShare(app *callgraph.Application, f string) float64 {
	s, _ := app.Share(f)
	return s
}

// A callContext is the calling context in which a changed external function
// was weighed: the project functions it runs under in both the
// application and the benchmark, sorted, and the application's share of
// the function under them.
type callContext struct {
	owners []string
	share  float64
}

// contextShare returns the weight of changed function f's own term and,
// when it is one, its calling context. A function outside the project
// (the runtime, the standard library, a dependency) moves in a benchmark
// because the project code the benchmark runs calls it differently (an
// Encode that allocates twice the buffer clears twice the memory in
// memclrNoHeapPointers), and the application's other paths to it do not
// move with it: its weight is the application's time in it under the
// project functions it runs under there (callgraph.Application.Owners,
// the innermost project frame of each stack) that the benchmark runs too
// (that have a cost in some measurement of either version), not its whole
// share, most of which the application may spend under other callers.
// The benchmark's per-function profiles keep no stacks (its instruction
// counts have none), so the owners it runs stand for the callers it
// reached the function through: a benchmark that runs two of them weighs
// the function under both.
// The function keeps its whole share when the application runs it under
// no project function (called from the runtime only: the collector's
// workers) or under none the benchmark runs (the benchmark's own code
// calls it).
func contextShare(app *callgraph.Application, f string, base, head []map[string]float64) (float64, callContext) {
	var c callContext
	owners := app.Owners[f]
	for _, o := range slices.Sorted(maps.Keys(owners)) {
		if runs(base, o) || runs(head, o) {
			c.owners = append(c.owners, o)
			c.share += owners[o]
		}
	}
	if c.owners == nil {
		return appShare(app, f), callContext{}
	}
	return c.share, c
}

// use returns f's index in m.fns, adding f when it is not there yet.
func (m *model) use(f *fn) int {
	if i, ok := m.idx[f.name]; ok {
		return i
	}
	m.idx[f.name] = len(m.fns)
	m.fns = append(m.fns, f)
	return len(m.fns) - 1
}

// absorbers returns the functions of changed that changed, grew (sign > 0)
// or shrank (sign < 0) and that keep, each with its weight by the size of
// its change.
func absorbers(changed []*fn, sign float64, keep func(c *fn) bool) ([]*fn, []float64) {
	var cs []*fn
	var ws []float64
	sum := 0.0
	for _, c := range changed {
		if d := c.mh - c.mb; c.kind == KindChanged && d*sign > 0 && keep(c) {
			cs, ws = append(cs, c), append(ws, math.Abs(d))
			sum += math.Abs(d)
		}
	}
	for i := range ws {
		ws[i] /= sum
	}
	return cs, ws
}

// samePkg returns the function that reports whether a function is of f's
// package (never for a function without one).
func samePkg(f *fn) func(c *fn) bool {
	pkg := callgraph.PackageOf(f.name)
	return func(c *fn) bool { return pkg != "" && callgraph.PackageOf(c.name) == pkg }
}

// foldVanished folds vanished function g into the own terms of the
// changed functions that absorbed it: the callers that grew, weighted by
// the application's time in g from them, else the functions of its package
// that grew, weighted by g's share. When none grew, its work went away,
// and g gets a term of its own, weighed by the application's time in it
// under the project functions the benchmark runs it under (a function
// outside the project: contextShare) or from the callers the benchmark
// runs.
func (m *model) foldVanished(g *fn, changed []*fn, own map[string]*term, app *callgraph.Application, base, head []map[string]float64) {
	callers := app.Callers[g.name]
	cs, ws := absorbers(changed, +1, func(c *fn) bool { return callers[c.name] > 0 })
	viaCallers := len(cs) > 0
	if !viaCallers {
		cs, ws = absorbers(changed, +1, samePkg(g))
	}
	if len(cs) == 0 {
		// Its work went away: the application saves its time in
		// the callers the benchmark runs (all of it when the
		// profile names no caller the benchmark runs).
		w, ctx := contextShare(app, g.name, base, head)
		if ctx.owners != nil {
			m.contexts[g.name] = ctx
		} else if via := sharesRun(callers, base); via > 0 {
			w = via
		}
		i := m.use(g)
		m.terms = append(m.terms, &term{w: w, num: []coef{{i, 1}}, den: []coef{{i, 1}}})
		return
	}
	i := m.use(g)
	for k, c := range cs {
		t := own[c.name]
		t.num = append(t.num, coef{i, ws[k]})
		t.den = append(t.den, coef{i, ws[k]})
		if viaCallers {
			t.w += callers[c.name]
		} else {
			t.w += ws[k] * appShare(app, g.name)
		}
		m.folded[g.name] = append(m.folded[g.name], c.name)
	}
}

// foldNew folds new function g into the own terms of the functions of its
// package that shrank, and reports whether there were any.
func (m *model) foldNew(g *fn, changed []*fn, own map[string]*term) bool {
	cs, ws := absorbers(changed, -1, samePkg(g))
	if len(cs) == 0 {
		return false
	}
	i := m.use(g)
	for k, c := range cs {
		t := own[c.name]
		t.num = append(t.num, coef{i, ws[k]})
		m.folded[g.name] = append(m.folded[g.name], c.name)
	}
	return true
}

// addLeft adds the term of the functions left (changed functions that
// fold nowhere), weighed by the benchmark's share of the application over
// its base total, and records their share of all of changed's movement as
// unattributed.
func (m *model) addLeft(changed, left []*fn) {
	t := &term{w: m.benchShare, total: true}
	moved, all := 0.0, 0.0
	for _, f := range changed {
		all += math.Abs(f.mh - f.mb)
	}
	for _, f := range left {
		t.num = append(t.num, coef{m.use(f), 1})
		moved += math.Abs(f.mh - f.mb)
	}
	m.unattributed = moved / all
	m.terms = append(m.terms, t)
}

// sharesRun returns the sum of the shares of the functions of shares that
// have a cost in some measurement of ms.
func sharesRun(shares map[string]float64, ms []map[string]float64) float64 {
	w := 0.0
	for f, s := range shares {
		if runs(ms, f) {
			w += s
		}
	}
	return w
}

// inApp reports whether the application's profile holds function name.
func inApp(app *callgraph.Application, name string) bool {
	_, ok := app.Share(name)
	return ok
}

// runs reports whether the function name has a cost in some measurement
// ms of the benchmark (both named as callgraph.NormalizeName names them).
func runs(ms []map[string]float64, name string) bool {
	for _, ms := range ms {
		if ms[name] > 0 {
			return true
		}
	}
	return false
}

// eval returns the application impact of the model given each model
// function's base and head medians, the benchmark's base total and each
// term's weight (nil: the terms' own).
func (m *model) eval(b, h []float64, total float64, ws []float64) float64 {
	sum := 0.0
	for k, t := range m.terms {
		w := t.w
		if ws != nil {
			w = ws[k]
		}
		if w == 0 {
			continue
		}
		num, den := 0.0, 0.0
		for _, c := range t.num {
			num += c.c * (h[c.i] - b[c.i])
		}
		if t.total {
			den = total
		}
		for _, c := range t.den {
			den += c.c * b[c.i]
		}
		if den > 0 {
			sum += w * num / den
		}
	}
	return sum
}

// impact returns the application impact of d with its interval.
func (m *model) impact(d Diff, base, head Measurements, opt Options) *AppImpact {
	a := &AppImpact{RelevantShare: d.AppRelevantShare, BenchmarkShare: m.benchShare}
	switch {
	case len(d.Culprits) > 0:
		a.Basis, a.Unattributed = BasisFunctions, m.unattributed
		a.NoImpact = a.RelevantShare < NoImpactShare
	case opt.Changed && opt.Benchmark != nil:
		e := opt.Benchmark
		a.Basis = BasisBenchmark
		a.Estimate, a.Low, a.High = m.benchShare*e.Change, m.benchShare*e.CI.Low, m.benchShare*e.CI.High
		a.NoImpact = m.benchShare == 0
		return a
	default:
		a.Basis, a.NoImpact = BasisNone, true
		return a
	}
	b, h := make([]float64, len(m.fns)), make([]float64, len(m.fns))
	for i, f := range m.fns {
		b[i], h[i] = f.mb, f.mh
	}
	a.Estimate = m.eval(b, h, d.Base, nil)
	a.Low, a.High = m.interval(base, head, opt)
	// The percentile interval of a statistic whose resamples all equal
	// the estimate may differ from it in the last bits.
	a.Low, a.High = math.Min(a.Low, a.Estimate), math.Max(a.High, a.Estimate)
	return a
}

// interval returns the model's percentile bootstrap interval: the
// hierarchical resampling of the benchmark's own estimate (trials, runs
// and measurements of both versions drawn as benchstats.Compare draws
// them), with each model function's medians and the base total taken
// over the drawn measurements and, when the application's samples are
// known, each term's weight drawn with its sampling error.
func (m *model) interval(base, head Measurements, opt Options) (lo, hi float64) {
	bi, bn := indices(base)
	hi2, hn := indices(head)
	bcols, hcols := make([][]float64, len(m.fns)), make([][]float64, len(m.fns))
	for i, f := range m.fns {
		bcols[i], hcols[i] = f.b, f.h
	}
	btot := totals(flatten(base))
	rng := benchstats.NewRand(opt.Seed)
	n := opt.Resamples
	if n <= 0 {
		n = benchstats.DefaultResamples
	}
	est := make([]float64, 0, n)
	bs, hs := make([]int, 0, bn), make([]int, 0, hn)
	b, h := make([]float64, len(m.fns)), make([]float64, len(m.fns))
	scratch := make([]float64, 0, max(bn, hn))
	pick := func(col []float64, at []int) float64 {
		scratch = scratch[:0]
		for _, k := range at {
			scratch = append(scratch, col[k])
		}
		return benchstats.Median(scratch)
	}
	// The reference profile's sampling error: each term's weight, a
	// share s of the application's samples, drawn from its normal
	// approximation N(s, s(1−s)/samples), at least 0.
	var ws []float64
	samples := float64(opt.App.Samples)
	if samples > 0 {
		ws = make([]float64, len(m.terms))
	}
	for range n {
		bs, hs = benchstats.ResampleHierarchy(rng, bi, hi2, bs[:0], hs[:0])
		for i := range m.fns {
			b[i], h[i] = pick(bcols[i], bs), pick(hcols[i], hs)
		}
		for k, t := range m.terms {
			if ws != nil {
				s := math.Min(t.w, 1)
				ws[k] = math.Max(0, t.w+rng.NormFloat64()*math.Sqrt(s*(1-s)/samples))
			}
		}
		est = append(est, m.eval(b, h, pick(btot, bs), ws))
	}
	slices.Sort(est)
	alpha := 1 - opt.confidence()
	return stat.Quantile(alpha/2, stat.Empirical, est, nil), stat.Quantile(1-alpha/2, stat.Empirical, est, nil)
}

// indices returns m's shape with each measurement replaced by its index
// in flatten(m), and the number of measurements.
func indices(m Measurements) ([][][]int, int) {
	out := make([][][]int, len(m))
	k := 0
	for t, tr := range m {
		out[t] = make([][]int, len(tr))
		for r, run := range tr {
			out[t][r] = make([]int, len(run))
			for i := range run {
				out[t][r][i] = k
				k++
			}
		}
	}
	return out, k
}
