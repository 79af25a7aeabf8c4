package analysis

import (
	"context"
	"math"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// SelectConfig configures the selection beyond Algorithm 2 (see
// optimize.Select). The zero value selects nothing beyond it.
type SelectConfig struct {
	// Objective is what a pick gains: covered nodes or covered
	// application time; or optimize.Cost, the cheapest suite with
	// Algorithm 2's coverage, which Budget, Top and MinGain cannot
	// accompany; or optimize.Caught, a suite that keeps what the whole
	// suite would catch at a +10% slowdown (see [CaughtSuite]; scenario
	// weights do not apply to it, and it counts every application
	// function whatever Config.Nodes says, as the caught curve does).
	// [Options.Config] makes it the default when measured MDEs exist;
	// the analysis then falls back to Algorithm 2 for benchmarks that are
	// function sets (source cover), which weigh no function.
	Objective optimize.Objective
	// byDefault reports that Objective is caught because Options left
	// the objective to its default.
	byDefault bool
	// Caught gives the benchmarks' minimum detectable effects the
	// caught objective weighs them by (as Config.Sensitivity gives them
	// to the detectable slowdowns); the zero value takes the typical
	// value of the profiles' source for every benchmark.
	Caught SensitivityConfig
	// Budget bounds the suite's summed benchmark cost, in seconds; 0 means
	// no budget.
	Budget float64
	// Costs maps benchmark ids to seconds. CostsFile, when set, is read
	// with [ReadCosts] and overrides Costs. Without either, costs come
	// from the manifest.json files (package manifest) among the Micro
	// directories, else from each benchmark profile's duration; see
	// [CostKind] and [Report.SuiteCost].
	Costs map[string]float64
	// CostsFile is a file of costs, see Costs.
	CostsFile string
	// DefaultCost is the cost of benchmarks without one; 0 makes them an
	// error under a budget and the cost objective.
	DefaultCost float64
	// Top stops the selection after that many picks; 0 means no limit.
	Top int
	// MinGain stops the selection when a pick would add fewer nodes; 0
	// means no threshold.
	MinGain int
	// ExcludeBenchmarks lists benchmarks the suite may not pick, such as
	// those too unstable to detect changes with: each is a benchmark's
	// id in the analysis or, for benchmarks collected with a manifest,
	// its import path + "." + full name (the id of package compare).
	// Every selection (Algorithm 2 and the variants) leaves them out, the
	// optimality certificates are not computed, and an [*ExclusionNote]
	// among the warnings says what coverage that costs.
	ExcludeBenchmarks []string
}

func (c SelectConfig) active() bool {
	return c.Objective != optimize.NodeCount || c.Budget != 0 || c.Top != 0 || c.MinGain != 0 || c.CostsFile != "" || c.Costs != nil || c.DefaultCost != 0
}

// validate checks the numbers a Go caller may get wrong.
func (c SelectConfig) validate() error {
	switch {
	case c.Budget < 0 || math.IsNaN(c.Budget) || math.IsInf(c.Budget, 0):
		return mbopt.Errorf("%s must be a positive number of seconds (0: no budget), not %g", FieldSelectBudget, c.Budget)
	case c.DefaultCost < 0 || math.IsNaN(c.DefaultCost) || math.IsInf(c.DefaultCost, 0):
		return mbopt.Errorf("%s must be a positive number of seconds (0: none), not %g", FieldSelectDefaultCost, c.DefaultCost)
	case c.Top < 0:
		return mbopt.Errorf("%s must be a positive count (0: no limit), not %d", FieldSelectTop, c.Top)
	case c.MinGain < 0:
		return mbopt.Errorf("%s must be a positive count (0: none), not %d", FieldSelectMinGain, c.MinGain)
	}
	if err := c.Caught.check(FieldSelectCaughtDefaultMDE); err != nil {
		return err
	}
	if c.Objective == optimize.Cost {
		for _, f := range []struct {
			set   bool
			field mbopt.Field
		}{{c.Budget != 0, "Select.Budget"}, {c.Top != 0, "Select.Top"}, {c.MinGain != 0, "Select.MinGain"}} {
			if f.set {
				return mbopt.Errorf("%s cost keeps Algorithm 2's full coverage at the smallest cost: leave %s unset", FieldSelectObjective, f.field)
			}
		}
	}
	return nil
}

// excluded returns the coverage set ids the selection leaves out, from
// rep's *ExclusionNote; nil without one.
func excluded(rep *Report) []string {
	for _, w := range rep.Warnings {
		if n, ok := w.(*ExclusionNote); ok {
			return n.Excluded
		}
	}
	return nil
}

// selectSuite runs the selection Config.Select asks for (weighted by
// scenario when weighted), compares the suites' costs, and computes the
// certificates Config.Certify asks for, setting them on rep.
func selectSuite(ctx context.Context, cfg Config, rep *Report, manifests []dirManifest, benches []coverage.Benchmark, weighted bool) error {
	sc := cfg.Select
	if sc.byDefault && rep.Source == manifest.SourceCover {
		// Function sets weigh no function: nothing is caught to keep.
		sc.Objective = optimize.NodeCount
	}
	alg2 := rep.Suite
	costs, source, err := resolveCosts(cfg, manifests, benches)
	if err != nil {
		return err
	}
	if sc.active() || weighted {
		plan := optimize.Plan{
			Nodes: cfg.Nodes, Objective: sc.Objective, Impact: cfg.Impact, Budget: sc.Budget,
			Costs: costs, DefaultCost: sc.DefaultCost, Top: sc.Top, MinGain: sc.MinGain,
			Exclude: excluded(rep),
		}
		// The cost objective keeps the union's full coverage: weights
		// would not change it; the caught objective weighs by
		// application share.
		if weighted && sc.Objective != optimize.Cost && sc.Objective != optimize.Caught {
			plan.Weights = rep.Scenarios.NodeWeights(sc.Objective == optimize.Impact, cfg.Impact)
		}
		if (plan.Budget > 0 || plan.Objective == optimize.Cost) && (source.Kind == CostsFromManifest || source.Kind == CostsFromProfiles) {
			rep.Warnings = append(rep.Warnings, &CostSourceNote{Source: source})
		}
		var sel *optimize.Selection
		if sc.Objective == optimize.Caught {
			sel, err = selectCaught(ctx, cfg, rep, plan)
		} else {
			sel, err = optimize.Select(rep.Coverage, plan)
		}
		if err != nil {
			if plan.Budget > 0 || plan.Objective == optimize.Cost {
				return mbopt.Errorf("selecting the suite: %w (set %s, collect the profiles with a manifest.json or with profiles that record their duration, or set %s)", err, FieldSelectCostsFile, FieldSelectDefaultCost)
			}
			return mbopt.Errorf("selecting the suite: %w", err)
		}
		rep.Selection = sel
		rep.Suite = sel.Result()
	}
	rep.SuiteCost = suiteCost(cfg, rep.Coverage, alg2, rep.Selection, costs, source)
	if excluded(rep) != nil {
		// The certificates bound suites of the whole suite's coverage,
		// which a suite without the excluded benchmarks may not reach.
		return nil
	}
	if cfg.Certify && sc.Objective == optimize.Cost {
		c, err := optimize.CertifyCost(rep.Coverage, optimize.CertifyOptions{Nodes: cfg.Nodes, Impact: cfg.Impact, Costs: costs, DefaultCost: sc.DefaultCost})
		if err != nil {
			rep.Warnings = append(rep.Warnings, &NoCertificateWarning{Err: err})
		} else {
			rep.CostCertificate = c
		}
	}
	if cfg.Certify && rep.Caught != nil {
		return certifyCaught(rep, costs)
	}
	if cfg.Certify {
		c, err := optimize.Certify(rep.Coverage, optimize.CertifyOptions{Nodes: cfg.Nodes, Impact: cfg.Impact})
		if err != nil {
			rep.Warnings = append(rep.Warnings, &NoCertificateWarning{Err: err})
		} else {
			rep.Certificate = c
		}
	}
	return nil
}
