package sensitivity

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/mbopt/mbopt/callgraph"
)

// Typical minimum detectable effects, the default of [Options.DefaultMDE]
// by the profiles' source: what a comparison at the default schedule
// detects on a shared 2-core runner (docs/metrics.md), instruction counts
// to about half a percent, CPU time to about five percent.
const (
	InstructionsMDE = 0.005
	CPUMDE          = 0.05
)

// DefaultThreshold is the smallest change a comparison reports as one
// by default: mbopt compare's --threshold, 1%.
const DefaultThreshold = 0.01

// DefaultSlowdowns are the slowdowns of the caught curve: 1%, 5%, 10% and
// 50%.
var DefaultSlowdowns = []float64{0.01, 0.05, 0.10, 0.50}

// DefaultRecommendSlowdown is the slowdown the recommendations rank by:
// 10%.
const DefaultRecommendSlowdown = 0.10

// A Benchmark is one benchmark of the suite: its per-operation profile and
// its minimum detectable effect.
type Benchmark struct {
	// ID is the benchmark's id (package import path + "." + name).
	ID string
	// Profile is the benchmark's profile as a call graph; only its nodes'
	// Flat and its Total are read.
	Profile *callgraph.Graph
	// Shares, when not nil, are the functions' shares of the benchmark's
	// cost in place of Profile's Flat / Total (package analysis credits
	// the runtime's asynchronous preemption to the interrupted function).
	Shares map[string]float64
	// MDE is the benchmark's minimum detectable effect, a fraction (0.005
	// is 0.5%); 0 means unknown: Options.DefaultMDE is used.
	MDE float64
}

// Options tune [Compute]. The zero value is the defaults.
type Options struct {
	// DefaultMDE is the minimum detectable effect of a benchmark whose
	// MDE is not known; 0 means InstructionsMDE when every profile is an
	// instruction profile (Unit "instructions") and CPUMDE otherwise.
	DefaultMDE float64
	// Threshold is the smallest relative change the comparisons report
	// as a change (compare's Settings.Threshold): a benchmark reports a
	// definite slowdown only when its interval, one MDE either side of
	// the change, lies beyond the threshold, so it needs threshold + MDE
	// (see [Benchmark]'s effective effect in the package documentation).
	// 0 means DefaultThreshold.
	Threshold float64
	// Slowdowns are the points of the caught curve, ascending; nil means
	// DefaultSlowdowns.
	Slowdowns []float64
	// Recommend is the slowdown the recommendations rank by; 0 means
	// DefaultRecommendSlowdown.
	Recommend float64
	// Suite, when not nil, names the benchmarks of a sub-suite (the
	// minimal suite) whose caught curve [Result.SuiteCaught] is computed
	// beside the whole suite's.
	Suite []string
	// AppShares, when not nil, are the application's functions' shares
	// of its CPU time in place of the application graph's Flat / Total
	// (a function not in it has none).
	AppShares map[string]float64
	// Functions, when not nil, says which application functions are
	// listed in Result.Functions and recommended (the project's, say);
	// nil means every function with a flat share. The caught curve counts
	// the whole application either way.
	Functions func(n *callgraph.Node) bool
}

// A Function is one application function and the smallest slowdown of it
// the suite would catch.
type Function struct {
	// Function is the function's name, as callgraph.NormalizeName writes
	// it.
	Function string `json:"function"`
	// AppShare is its flat share of the application's CPU time, 0..1.
	AppShare float64 `json:"app_share"`
	// DetectableSlowdown is the smallest relative slowdown of its own
	// cost that a benchmark of the suite would report (0.05 is +5%); nil
	// when no benchmark runs it: the suite would never notice.
	DetectableSlowdown *float64 `json:"detectable_slowdown"`
	// Benchmark is the benchmark that catches it first (the smallest
	// (threshold + MDE) / share; ties by id); "" with no
	// DetectableSlowdown.
	Benchmark string `json:"benchmark,omitempty"`
	// Share is its flat share of Benchmark's per-operation cost, 0..1.
	Share float64 `json:"benchmark_share,omitempty"`
	// MDE is Benchmark's minimum detectable effect used: measured, or
	// the default.
	MDE float64 `json:"mde,omitempty"`
	// Effect is Benchmark's effective detectable effect E_b: the
	// threshold plus MDE ([Benchmark]'s rule), so DetectableSlowdown =
	// Effect / Share.
	Effect float64 `json:"effect,omitempty"`
}

// Caught reports whether the suite would catch a slowdown s of f.
func (f Function) Caught(s float64) bool {
	return f.DetectableSlowdown != nil && *f.DetectableSlowdown <= s
}

// A Point is one point of a caught curve.
type Point struct {
	// Slowdown is the slowdown, a fraction.
	Slowdown float64 `json:"slowdown"`
	// AppShare is the share of the application's CPU time in functions
	// where a slowdown of Slowdown would be caught, 0..1.
	AppShare float64 `json:"app_share"`
}

// A Recommendation is an application function whose slowdown the suite
// would miss, ranked by the application time in which it would go
// unnoticed.
type Recommendation struct {
	// Function is the function and its detectable slowdown.
	Function
	// Unnoticed is the share of the application's CPU time in which a
	// slowdown of Result.RecommendSlowdown of this function would go
	// unnoticed: its AppShare; after [Result.Regroup], the AppShare of
	// its Members.
	Unnoticed float64 `json:"unnoticed"`
	// Members are, after [Result.Regroup], the application functions
	// (the target's own and its closures) whose slowdown would go
	// unnoticed, by AppShare, largest first, then by name; nil before.
	Members []string `json:"members,omitempty"`
	// Negligible marks a target [Result.Regroup] was told is negligible
	// (package recommend's rule: tiny and rarely run).
	Negligible bool `json:"negligible,omitempty"`
}

// Result is what the suite would catch.
type Result struct {
	// Source is the unit of the benchmarks' profiles: "instructions" for
	// instruction profiles, whose shares are exact; otherwise (CPU
	// profiles, "seconds") the shares are sampled and a small share may be
	// far off.
	Source string `json:"source"`
	// DefaultMDE is the MDE used for the benchmarks without one.
	DefaultMDE float64 `json:"default_mde"`
	// Measured counts the benchmarks whose MDE was given (measured); the
	// others used DefaultMDE.
	Measured int `json:"measured_mdes"`
	// Threshold is the comparisons' threshold used: a benchmark's
	// effective detectable effect is this plus its MDE.
	Threshold float64 `json:"threshold"`
	// Functions are the application's functions (those Options.Functions
	// keeps), by AppShare, largest first, then by name.
	Functions []Function `json:"functions"`
	// Caught is the whole suite's caught curve, at Options.Slowdowns.
	Caught []Point `json:"caught"`
	// SuiteCaught is Options.Suite's caught curve; nil without a Suite.
	SuiteCaught []Point `json:"suite_caught,omitempty"`
	// RecommendSlowdown is the slowdown the recommendations rank by.
	RecommendSlowdown float64 `json:"recommend_slowdown"`
	// Recommendations are the functions a slowdown of RecommendSlowdown
	// would go unnoticed in, by Unnoticed, largest first, then by name.
	Recommendations []Recommendation `json:"recommendations"`

	all []Function // every node of the application, by id
}

// CaughtAt returns the share of the application's CPU time in which the
// whole suite would catch a slowdown s.
func (r *Result) CaughtAt(s float64) float64 { return caughtAt(r.all, s) }

// Compute returns what the benchmarks would catch of the application's
// functions. A benchmark whose profile is empty is an error naming it.
func Compute(app *callgraph.Graph, benches []Benchmark, opt Options) (*Result, error) {
	if app == nil || app.Total <= 0 {
		return nil, fmt.Errorf("sensitivity: the application profile has no samples")
	}
	res := &Result{Source: "instructions", DefaultMDE: opt.DefaultMDE, Threshold: cmp.Or(opt.Threshold, DefaultThreshold), RecommendSlowdown: cmp.Or(opt.Recommend, DefaultRecommendSlowdown)}
	for _, b := range benches {
		if b.Profile == nil || b.Profile.Total <= 0 {
			return nil, fmt.Errorf("sensitivity: benchmark %s: its profile has no samples", b.ID)
		}
		if b.MDE < 0 || math.IsNaN(b.MDE) {
			return nil, fmt.Errorf("sensitivity: benchmark %s: MDE %g is not a fraction >= 0", b.ID, b.MDE)
		}
		if b.Profile.Unit != "instructions" {
			res.Source = b.Profile.Unit
		}
		if b.MDE > 0 {
			res.Measured++
		}
	}
	res.DefaultMDE = typicalMDE(benches, res.DefaultMDE)
	slowdowns := opt.Slowdowns
	if slowdowns == nil {
		slowdowns = DefaultSlowdowns
	}
	all := detectable(app, opt.AppShares, benches, res.DefaultMDE, res.Threshold)
	res.all = all
	res.Caught = curve(all, slowdowns)
	if opt.Suite != nil {
		var sub []Benchmark
		for _, b := range benches {
			if slices.Contains(opt.Suite, b.ID) {
				sub = append(sub, b)
			}
		}
		res.SuiteCaught = curve(detectable(app, opt.AppShares, sub, res.DefaultMDE, res.Threshold), slowdowns)
	}
	for i, f := range all {
		if f.AppShare == 0 || opt.Functions != nil && !opt.Functions(&app.Nodes[i]) {
			continue
		}
		res.Functions = append(res.Functions, f)
		if !f.Caught(res.RecommendSlowdown) {
			res.Recommendations = append(res.Recommendations, Recommendation{Function: f, Unnoticed: f.AppShare})
		}
	}
	slices.SortFunc(res.Functions, func(a, b Function) int {
		return cmp.Or(cmp.Compare(b.AppShare, a.AppShare), cmp.Compare(a.Function, b.Function))
	})
	sortRecommendations(res.Recommendations, false)
	return res, nil
}

// sortRecommendations sorts rs by Unnoticed, largest first, then by
// name; with negligibleLast the negligible ones after all others.
func sortRecommendations(rs []Recommendation, negligibleLast bool) {
	slices.SortFunc(rs, func(a, b Recommendation) int {
		if negligibleLast && a.Negligible != b.Negligible {
			if a.Negligible {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(b.Unnoticed, a.Unnoticed), cmp.Compare(a.Function.Function, b.Function.Function))
	})
}

// detectable returns, for each node of app (by id), its Function with the
// smallest slowdown benches would catch, each benchmark's effect being
// threshold plus its MDE (defaultMDE where not given); appShares,
// when not nil, are the application's shares.
func detectable(app *callgraph.Graph, appShares map[string]float64, benches []Benchmark, defaultMDE, threshold float64) []Function {
	fns := make([]Function, len(app.Nodes))
	for i, n := range app.Nodes {
		share := max(n.Flat, 0) / app.Total
		if appShares != nil {
			share = appShares[n.Name]
		}
		fns[i] = Function{Function: n.Name, AppShare: share}
	}
	for _, b := range benches {
		mde, effect := cmp.Or(b.MDE, defaultMDE), b.effect(defaultMDE, threshold)
		for name, share := range b.shares() {
			if share <= 0 {
				continue
			}
			id, ok := app.Lookup(name)
			if !ok {
				continue
			}
			s := effect / share
			f := &fns[id]
			if f.DetectableSlowdown == nil || s < *f.DetectableSlowdown || s == *f.DetectableSlowdown && b.ID < f.Benchmark {
				f.DetectableSlowdown, f.Benchmark, f.Share, f.MDE, f.Effect = &s, b.ID, share, mde, effect
			}
		}
	}
	return fns
}

// typicalMDE returns d, or when d is 0 the typical MDE of benches'
// profiles: InstructionsMDE when every profile is an instruction profile,
// CPUMDE otherwise.
func typicalMDE(benches []Benchmark, d float64) float64 {
	if d != 0 {
		return d
	}
	for _, b := range benches {
		if b.Profile != nil && b.Profile.Unit != "instructions" {
			return CPUMDE
		}
	}
	return InstructionsMDE
}

// effect returns E_b, the smallest slowdown of b that a comparison
// reports as a definite regression: threshold + MDE_b, its MDE being
// defaultMDE when not known. This is the one place the rule lives (the
// detectable slowdowns, the caught curves, the recommendations and
// [NewRelation]'s "b catches f" all take it from here).
//
// It is a sum, not the larger of the two, because "caught" means
// definite: compare's judge (benchstats.Judge) calls a regression
// definite only when its whole interval lies beyond the threshold band,
// CI.Low > threshold, that is change − (the interval's lower half-width)
// > threshold. MDE_b is the interval's half-width
// (benchstats.Estimate.MinDetectableEffect, the larger of the two), so a
// change of threshold + MDE_b puts the interval's lower end at or above
// the threshold, while a change of max(MDE_b, threshold) puts it about
// one half-width short of it: a mutant there is definite about half the
// time (the mutation score missed Parse exactly at such a prediction).
// A change of exactly E_b is the boundary: it is definite when the
// comparison that measures it is no noisier than MDE_b says.
func (b Benchmark) effect(defaultMDE, threshold float64) float64 {
	return threshold + cmp.Or(b.MDE, defaultMDE)
}

// shares returns b's functions' shares of its cost: Shares, or its
// profile's flat values over its total.
func (b Benchmark) shares() map[string]float64 {
	if b.Shares != nil {
		return b.Shares
	}
	m := make(map[string]float64, len(b.Profile.Nodes))
	for _, n := range b.Profile.Nodes {
		if n.Flat > 0 {
			m[n.Name] = n.Flat / b.Profile.Total
		}
	}
	return m
}

// curve returns the caught curve of fns at slowdowns.
func curve(fns []Function, slowdowns []float64) []Point {
	out := make([]Point, len(slowdowns))
	for i, s := range slowdowns {
		out[i] = Point{Slowdown: s, AppShare: caughtAt(fns, s)}
	}
	return out
}

// caughtAt returns the application share of the functions of fns that a
// slowdown s would be caught in.
func caughtAt(fns []Function, s float64) float64 {
	total := 0.0
	for _, f := range fns {
		if f.Caught(s) {
			total += f.AppShare
		}
	}
	return total
}
