package analysis

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/par"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/sensitivity"
)

// Sensitivity computes what rep's suite would catch of the application's
// project functions (package sensitivity): the smallest slowdown of each
// that some benchmark would report, the caught curves of the whole suite
// and of the minimal suite (rep.Suite), and the functions whose slowdown
// would go unnoticed. It reads each benchmark's profile again (the
// coverage the analysis keeps has no weights) for its functions' flat
// shares. mdes gives benchmarks' minimum detectable effects by id (from
// comparisons with the metric the suite runs under); a benchmark without
// one takes opt.DefaultMDE. opt.Suite and opt.Functions are set here.
//
// The shares need per-operation profiles: instruction profiles (exact) or
// CPU profiles (sampled); benchmarks collected as function sets (source
// cover) have no weights, which is an input error.
func Sensitivity(ctx context.Context, rep *Report, mdes map[string]float64, opt sensitivity.Options) (*sensitivity.Result, error) {
	benches, err := SensitivityBenchmarks(ctx, rep, mdes)
	if err != nil {
		return nil, err
	}
	opt.Functions = func(n *callgraph.Node) bool { return n.Project }
	opt.AppShares = measuredShares(applicationOf(rep.Coverage.App))
	if rep.Suite != nil {
		opt.Suite = rep.Suite.IDs()
	}
	return sensitivity.Compute(rep.Coverage.App, benches, opt)
}

// FieldSensitivity names Config.Sensitivity in errors (mbopt analyze's
// --sensitivity).
const FieldSensitivity mbopt.Field = "Sensitivity"

// FieldSensitivityDefaultMDE names SensitivityConfig.DefaultMDE in
// errors (mbopt analyze's --mde).
const FieldSensitivityDefaultMDE mbopt.Field = "Sensitivity.DefaultMDE"

// run computes rep's detectable slowdowns as c says, its
// recommendations by the targets of Algorithm 3's (opts: with
// recommend.Callable the functions a benchmark can call, closures folded
// in, negligible ones last unless opts.KeepNegligible; see
// [SensitivityTargets]).
func (c *SensitivityConfig) run(ctx context.Context, rep *Report, opts recommend.Options) (*sensitivity.Result, error) {
	if err := c.check(FieldSensitivityDefaultMDE); err != nil {
		return nil, err
	}
	res, err := Sensitivity(ctx, rep, c.MDEs, sensitivity.Options{DefaultMDE: c.DefaultMDE})
	if err != nil {
		return nil, err
	}
	res.Regroup(SensitivityTargets(rep, opts), opts.Targets == recommend.Callable && !opts.KeepNegligible)
	return res, nil
}

// check returns the input error of a DefaultMDE that is not a fraction in
// [0, 1), naming it as field.
func (c *SensitivityConfig) check(field mbopt.Field) error {
	if c.DefaultMDE < 0 || c.DefaultMDE >= 1 || math.IsNaN(c.DefaultMDE) {
		return mbopt.Errorf("%s %g: give a fraction between 0 and 1 (0.005 is 0.5%%; 0: the typical value of the profiles' source)", field, c.DefaultMDE)
	}
	return nil
}

// SensitivityTargets returns the targets the sensitivity recommendations
// name: Algorithm 3's candidates by the same rules (recommend.Candidates
// with opts), negligible as there, the whole suite's coverage counting a
// caller as benchmarked.
func SensitivityTargets(rep *Report, opts recommend.Options) []sensitivity.Target {
	g := rep.Coverage.App
	cands := recommend.Candidates(rep.Coverage, rep.Coverage.Covered, opts)
	out := make([]sensitivity.Target, len(cands))
	for i, c := range cands {
		t := sensitivity.Target{Function: c.Function, Negligible: c.Negligible != nil}
		for _, v := range c.Members {
			t.Members = append(t.Members, g.Nodes[v].Name)
		}
		out[i] = t
	}
	return out
}

// SensitivityBenchmarks returns rep's benchmarks as package sensitivity
// weighs them (see [Sensitivity]), sorted by id: each one's profile read
// again as [Run] read it for its coverage (Config's modules, exclusions,
// Limits, and the non-CPU or sample-less profiles AllowNonCPU and
// AllowEmpty accept, an instruction profile its manifest records always),
// so rep must be Run's; its shares as [Application] takes them (the runtime's
// asynchronous preemption credited to the function it interrupted, which
// on a loaded machine holds most of a tight loop's samples), with its MDE from mdes, which holds MDEs by analysis id or by
// package compare's id (package path + "." + name; ids of other
// benchmarks are ignored). The caught objective (optimize.Caught, see
// [SelectConfig]) picks a suite that keeps what the whole suite catches
// with sensitivity.NewRelation on rep.Coverage.App and these.
func SensitivityBenchmarks(ctx context.Context, rep *Report, mdes map[string]float64) ([]sensitivity.Benchmark, error) {
	if rep.Source == manifest.SourceCover {
		return nil, mbopt.Errorf("the benchmarks are function sets (source cover), which record no time: the detectable slowdowns need per-operation profiles; collect with mbopt profile --source instructions (or the default CPU profiles)")
	}
	ids := make([]string, 0, len(rep.Profiles))
	for id := range rep.Profiles {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	opts := benchmarkOptions(rep.read, rep.Source == manifest.SourceInstructions)
	benches := make([]sensitivity.Benchmark, len(ids))
	errs := make([]error, len(ids))
	par.For(ctx, len(ids), runtime.GOMAXPROCS(0), func(i int) {
		g, err := callgraph.Load([]string{rep.Profiles[ids[i]]}, opts)
		mde, ok := mdes[ids[i]]
		if !ok {
			mde = mdes[rep.compareID(ids[i])]
		}
		benches[i], errs[i] = sensitivity.Benchmark{ID: ids[i], Profile: g, MDE: mde}, err
		if err == nil {
			benches[i].Shares = measuredShares(applicationOf(g))
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("benchmark %s: %w", ids[i], err)
		}
	}
	return benches, nil
}

// measuredShares returns the shares of a that were measured, not floored
// (a function the profile did not sample has none here); nil for a nil a.
func measuredShares(a *callgraph.Application) map[string]float64 {
	if a == nil {
		return nil
	}
	out := make(map[string]float64, len(a.Shares))
	for f, s := range a.Shares {
		if !a.Floored[f] && s > 0 {
			out[f] = s
		}
	}
	return out
}
