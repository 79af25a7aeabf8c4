package culprit_test

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
)

// side builds a side of trials × runs × count measurements, each function's
// value drawn by its generator.
func side(trials, runs, count int, fns map[string]func(r *rand.Rand) float64, seed uint64) culprit.Measurements {
	r := rand.New(rand.NewPCG(seed, 7))
	m := make(culprit.Measurements, trials)
	for t := range m {
		m[t] = make([][]map[string]float64, runs)
		for k := range m[t] {
			for range count {
				p := map[string]float64{}
				// In name order: the draws must not follow the map's
				// random order (the same seed gave another sample).
				for _, f := range slices.Sorted(maps.Keys(fns)) {
					if v := fns[f](r); v != 0 {
						p[f] = v
					}
				}
				m[t][k] = append(m[t][k], p)
			}
		}
	}
	return m
}

func fixed(v float64) func(*rand.Rand) float64 { return func(*rand.Rand) float64 { return v } }

// noisy is runtime work as a difference of two counts: around mean, spread
// ±spread, sometimes negative.
func noisy(mean, spread float64) func(*rand.Rand) float64 {
	return func(r *rand.Rand) float64 { return mean + spread*(2*r.Float64()-1) }
}

func with(base map[string]func(*rand.Rand) float64, f string, gen func(*rand.Rand) float64) map[string]func(*rand.Rand) float64 {
	out := map[string]func(*rand.Rand) float64{}
	for k, v := range base {
		out[k] = v
	}
	if gen == nil {
		delete(out, f)
	} else {
		out[f] = gen
	}
	return out
}

const (
	hot    = "example.com/m/work.Hot"
	alloc  = "example.com/m/work.Alloc"
	bench  = "example.com/m/work.BenchmarkWork"
	malloc = "runtime.mallocgc"
	unlock = "runtime.unlock2"
	memclr = "runtime.memclrNoHeapPointers"
	other  = "example.com/m/other.Cold"
)

// The benchmark of issue 30: Hot does exactly 10% more work, beside an
// allocating helper and runtime functions whose per-operation counts are
// noise on tiny or negative bases.
var hotBase = map[string]func(*rand.Rand) float64{
	hot: fixed(10000), alloc: fixed(2000), bench: fixed(50), malloc: noisy(3000, 40),
	unlock: noisy(-30, 120), memclr: noisy(40, 30),
}

var hotApp = &callgraph.Application{
	Shares: map[string]float64{hot: 0.68, alloc: 0.05, malloc: 0.1, unlock: 0.01, memclr: 0.02},
}

func TestExplain(t *testing.T) {
	near := func(x, y, tol float64) bool { return math.Abs(x-y) <= tol }
	tests := []struct {
		name        string
		head        map[string]func(*rand.Rand) float64
		base        map[string]func(*rand.Rand) float64
		app         *callgraph.Application
		culprits    []string
		est, lo, hi float64 // the interval must lie within [lo, hi] and hold est
		tol         float64
		basis       string
		noImpact    bool
		kind        string // the first culprit's kind, where the case is about it
	}{
		{
			name: "Hot 10% slower: only Hot is a culprit, the application +6.8%",
			head: with(hotBase, hot, fixed(11000)), app: hotApp,
			culprits: []string{hot}, est: 0.068, lo: 0.068, hi: 0.068, tol: 1e-9, basis: culprit.BasisFunctions,
		},
		{
			name: "a change in a function the application never runs",
			base: with(hotBase, other, fixed(4000)), head: with(hotBase, other, fixed(8000)), app: hotApp,
			culprits: []string{other}, est: 0, lo: -0.001, hi: 0.001, tol: 1e-9, basis: culprit.BasisFunctions, noImpact: true,
		},
		{
			// Its base is no clear positive count (a difference of two
			// iteration counts), so no relative change is formed; the
			// application still does not run it, so it weighs nothing,
			// not its fraction of the benchmark times the benchmark's
			// share (issue 30: runtime.mergeSummaries, unclear in one
			// of two comparisons of one change, took 1 point of the
			// estimate there and 0 in the other).
			name: "an unclear change in a function the application never runs",
			base: with(hotBase, other, noisy(1000, 1500)), head: with(hotBase, other, fixed(8000)), app: hotApp,
			culprits: []string{other}, est: 0, lo: -0.001, hi: 0.001, tol: 1e-9, basis: culprit.BasisFunctions, noImpact: true, kind: culprit.KindUnclear,
		},
		{
			// Its base, a noisy difference of two counts, is at most
			// 5% of the head: "new" by its kind, yet the base ran it,
			// so it is no new code, and the application does not run
			// it (the unclear case above, with another draw of the
			// noise, flipped between the two kinds).
			name: "a function the base barely ran and the application never runs",
			base: with(hotBase, other, noisy(100, 200)), head: with(hotBase, other, fixed(8000)), app: hotApp,
			culprits: []string{other}, est: 0, lo: -0.001, hi: 0.001, tol: 1e-9, basis: culprit.BasisFunctions, noImpact: true, kind: culprit.KindNew,
		},
		{
			name: "A/A: runtime noise is no culprit, the estimate is 0",
			head: hotBase, app: hotApp,
			est: 0, lo: 0, hi: 0, tol: 0, basis: culprit.BasisNone, noImpact: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := tt.base
			if base == nil {
				base = hotBase
			}
			b, h := side(3, 3, 1, base, 1), side(3, 3, 1, tt.head, 2)
			d, a := culprit.Explain(b, h, culprit.Options{App: tt.app, MinDelta: 0.5, Resamples: 2000, Seed: 3})
			var got []string
			for _, c := range d.Culprits {
				got = append(got, c.Function)
			}
			if len(got) != len(tt.culprits) || (len(got) > 0 && got[0] != tt.culprits[0]) {
				t.Fatalf("culprits %v, want %v (diff %+v)", got, tt.culprits, d)
			}
			if tt.kind != "" && d.Culprits[0].Kind != tt.kind {
				t.Errorf("%s is %q, want %q", got[0], d.Culprits[0].Kind, tt.kind)
			}
			if a == nil {
				t.Fatal("no application impact")
			}
			t.Logf("culprits %v; application impact %+.3f%% [%+.3f%%, %+.3f%%] (%s), relevant share %.2f, likely no application impact %v",
				got, 100*a.Estimate, 100*a.Low, 100*a.High, a.Basis, a.RelevantShare, a.NoImpact)
			if !near(a.Estimate, tt.est, tt.tol) || a.Low < tt.lo-tt.tol || a.High > tt.hi+tt.tol || a.Low > a.Estimate || a.High < a.Estimate {
				t.Errorf("impact %+v, want %v within [%v, %v]", a, tt.est, tt.lo, tt.hi)
			}
			if a.Basis != tt.basis || a.NoImpact != tt.noImpact {
				t.Errorf("basis %q no-impact %v, want %q %v", a.Basis, a.NoImpact, tt.basis, tt.noImpact)
			}
			sum := 0.0
			for _, c := range d.Culprits {
				sum += c.Share
			}
			if len(d.Culprits) > 0 && !near(sum, 1, 1e-9) {
				t.Errorf("shares add up to %v, want 1", sum)
			}
		})
	}
}

// An encoder that absorbs three helpers inlined by hand: the helpers
// vanish, the encoder grows by nearly as much. The application reaches the
// helpers mostly through another encoder that did not change, so the
// application impact is no larger than the benchmark's change times its
// share of the application, and the encoder that received the code leads
// the culprits.
func TestExplainInlined(t *testing.T) {
	const (
		enc  = "example.com/c/flate.encodeFast"
		enc2 = "example.com/c/flate.encodeBetter"
		h1   = "example.com/c/flate.hash4"
		h2   = "example.com/c/flate.matchLen"
		h3   = "example.com/c/flate.emitLiteral"
	)
	base := map[string]func(*rand.Rand) float64{enc: fixed(120000), h1: fixed(45182), h2: fixed(36462), h3: fixed(11692), malloc: noisy(900, 30)}
	head := map[string]func(*rand.Rand) float64{enc: fixed(120000 + 80120), malloc: noisy(900, 30)}
	app := &callgraph.Application{
		Shares: map[string]float64{enc: 0.05, enc2: 0.30, h1: 0.15, h2: 0.12, h3: 0.04, malloc: 0.02},
		Callers: map[string]map[string]float64{
			h1: {enc: 0.03, enc2: 0.12}, h2: {enc: 0.02, enc2: 0.10}, h3: {enc: 0.01, enc2: 0.03},
		},
	}
	b, h := side(3, 3, 1, base, 1), side(3, 3, 1, head, 2)
	d, a := culprit.Explain(b, h, culprit.Options{App: app, MinDelta: 0.5, Resamples: 2000, Seed: 3})
	if len(d.Culprits) != 4 || d.Culprits[0].Function != enc {
		t.Fatalf("culprits %+v: want the encoder first, then the three helpers", d.Culprits)
	}
	for _, c := range d.Culprits[1:] {
		if c.Kind != culprit.KindVanished || len(c.FoldedInto) != 1 || c.FoldedInto[0] != enc {
			t.Errorf("%s: kind %s folded into %v, want vanished into %s", c.Function, c.Kind, c.FoldedInto, enc)
		}
	}
	sum := 0.0
	for _, c := range d.Culprits {
		sum += c.Share
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("the culprits' shares add up to %v, want 1", sum)
	}
	change := d.Head/d.Base - 1
	t.Logf("benchmark %+.2f%%; culprits %s first of %d; application impact %+.3f%% [%+.3f%%, %+.3f%%]", 100*change, d.Culprits[0].Function, len(d.Culprits), 100*a.Estimate, 100*a.Low, 100*a.High)
	// The benchmark's share of the application: the functions it runs.
	share := app.Shares[enc] + app.Shares[h1] + app.Shares[h2] + app.Shares[h3] + app.Shares[malloc]
	if bound := math.Abs(change) * share; math.Abs(a.Estimate) > bound || a.Estimate >= 0 {
		t.Errorf("application impact %+.4f%%, want an improvement no larger than |%+.3f%%| × %.2f = %.4f%%", 100*a.Estimate, 100*change, share, 100*bound)
	}
	// The encoder's path in the application: its own time and the
	// helpers' time called from it, changed as the encoder and its
	// helpers did together.
	want := (0.05 + 0.03 + 0.02 + 0.01) * ((80120.0 - 45182 - 36462 - 11692) / (120000 + 45182 + 36462 + 11692))
	if math.Abs(a.Estimate-want) > 1e-9 {
		t.Errorf("application impact %v, want %v", a.Estimate, want)
	}
}

// A benchmark that changed although no function did beyond its noise (two
// measurements per version are too few to tell) falls back to its share
// of the application times its change, marked as such.
func TestExplainFallback(t *testing.T) {
	b := side(1, 1, 1, hotBase, 1)
	h := side(1, 1, 1, with(hotBase, hot, fixed(11000)), 2)
	e := &benchstats.Estimate{Change: 0.05, CI: benchstats.Interval{Low: 0.04, High: 0.06}}
	d, a := culprit.Explain(b, h, culprit.Options{App: hotApp, MinDelta: 0.5, Benchmark: e, Changed: true, BenchmarkShare: 0.5})
	if !d.TooFew || len(d.Culprits) != 0 {
		t.Fatalf("diff %+v: want too few measurements and no culprits", d)
	}
	if a.Basis != culprit.BasisBenchmark || a.Estimate != 0.025 || a.Low != 0.02 || a.High != 0.03 {
		t.Errorf("impact %+v: want the benchmark's share × its change, 2.5%% [2%%, 3%%]", a)
	}
}

// A change in a function the application's function set (coverage) says
// ran, but that its profile never sampled: in the application, weighed by
// the floor, and marked.
func TestExplainFloored(t *testing.T) {
	const search = "example.com/kv/btree.search"
	app := &callgraph.Application{
		Shares:  map[string]float64{hot: 0.6, search: 0.0005},
		Floored: map[string]bool{search: true},
		Floor:   0.0005,
	}
	base := with(hotBase, search, fixed(5000))
	head := with(hotBase, search, fixed(5230)) // +4.6%
	d, a := culprit.Explain(side(3, 3, 1, base, 1), side(3, 3, 1, head, 2), culprit.Options{App: app, MinDelta: 0.5, Resamples: 500})
	if len(d.Culprits) != 1 {
		t.Fatalf("culprits %+v: want the search function only", d.Culprits)
	}
	c := d.Culprits[0]
	if !c.InApp || !c.AppFloor || c.AppShare != 0.0005 {
		t.Errorf("culprit %+v: want in the application, at the floor 0.0005", c)
	}
	if want := 0.0005 * 0.046; math.Abs(a.Estimate-want) > 1e-12 || a.NoImpact {
		t.Errorf("impact %+v: want %v, not likely no application impact", a, want)
	}
}

// Issue 30's calling context: Encode allocates a buffer twice as large,
// and the runtime clears twice the memory for it. The application spends
// 40% of its CPU time in memclrNoHeapPointers, but 33 points of it under
// Decode, which did not change, and 2.5 under Encode; the benchmark runs
// Encode only. The truth is the Encode path's share of the application ×
// its relative change, Σ over its functions of the application's share
// under Encode × their relative change: 0.025 × 100% = +2.5%, which the
// estimate gives and its interval (with the sampling error of 2,000
// samples) covers, where weighing memclrNoHeapPointers by its whole share
// said +40%.
func TestExplainCallingContext(t *testing.T) {
	const (
		enc = "example.com/m/codec.Encode"
		dec = "example.com/m/codec.Decode"
		bm  = "example.com/m/codec.BenchmarkEncode"
	)
	base := map[string]func(*rand.Rand) float64{enc: fixed(2000), malloc: noisy(600, 20), memclr: noisy(1000, 5)}
	head := with(base, memclr, noisy(2000, 5))
	owners := map[string]map[string]float64{
		memclr: {enc: 0.025, dec: 0.33}, // and 0.045 under no project function: the collector
		malloc: {enc: 0.015, dec: 0.06},
	}
	app := func(owners map[string]map[string]float64) *callgraph.Application {
		return &callgraph.Application{
			Shares:  map[string]float64{enc: 0.05, dec: 0.30, memclr: 0.40, malloc: 0.10},
			Owners:  owners,
			Samples: 2000,
		}
	}
	tests := []struct {
		name       string
		base, head map[string]func(*rand.Rand) float64
		app        *callgraph.Application
		want       float64
		context    []string // the culprit's AppContext
	}{
		{"weighed under Encode, the benchmark's project caller", base, head, app(owners), 0.025, []string{enc}},
		{
			// Encode stops clearing: the application saves its
			// time in memclrNoHeapPointers under Encode only.
			"vanished under Encode", base, with(base, memclr, noisy(10, 1)), app(owners), 0.025 * (10 - 1000) / 1000.0, []string{enc},
		},
		{"without the application's owners: the whole share (the rule before)", base, head, app(nil), 0.40, nil},
		{
			// The benchmark's own code clears the memory: the
			// application runs memclrNoHeapPointers under no project
			// function the benchmark runs, and it keeps its whole share.
			"under no owner the benchmark runs: the whole share",
			map[string]func(*rand.Rand) float64{bm: fixed(2000), malloc: noisy(600, 20), memclr: noisy(1000, 5)},
			map[string]func(*rand.Rand) float64{bm: fixed(2000), malloc: noisy(600, 20), memclr: noisy(2000, 5)},
			app(owners), 0.40, nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for run, seed := range []uint64{1, 2} {
				b, h := side(3, 3, 2, tt.base, 10*seed), side(3, 3, 2, tt.head, 10*seed+1)
				d, a := culprit.Explain(b, h, culprit.Options{App: tt.app, MinDelta: 0.5, Resamples: 2000, Seed: seed})
				if len(d.Culprits) != 1 || d.Culprits[0].Function != memclr {
					t.Fatalf("run %d: culprits %+v, want memclrNoHeapPointers only", run+1, d.Culprits)
				}
				c := d.Culprits[0]
				change := d.Head/d.Base - 1
				t.Logf("run %d: benchmark %+.2f%%; %s %+.0f%%, context %v (%.3f of %.2f); application impact %+.2f%% [%+.2f%%, %+.2f%%], want %+.2f%%",
					run+1, 100*change, c.Function, 100**c.Relative, c.AppContext, c.AppContextShare, c.AppShare, 100*a.Estimate, 100*a.Low, 100*a.High, 100*tt.want)
				if !slices.Equal(c.AppContext, tt.context) {
					t.Errorf("run %d: context %v, want %v", run+1, c.AppContext, tt.context)
				}
				if tt.context != nil && math.Abs(a.BenchmarkShare-0.09) > 1e-12 {
					t.Errorf("run %d: the benchmark's share %v, want Encode's path 0.09 (0.05 + 0.025 + 0.015)", run+1, a.BenchmarkShare)
				}
				if math.Abs(a.Estimate-tt.want) > 0.25*math.Abs(tt.want) {
					t.Errorf("run %d: application impact %+.4f, want within 25%% of %+.4f", run+1, a.Estimate, tt.want)
				}
				if a.Low > tt.want || a.High < tt.want {
					t.Errorf("run %d: interval [%+.4f, %+.4f] does not cover %+.4f", run+1, a.Low, a.High, tt.want)
				}
			}
		})
	}
}
