package analysis

import (
	"context"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/sensitivity"
)

// FieldSelectCaughtDefaultMDE names SelectConfig.Caught.DefaultMDE in
// errors (mbopt analyze's --mde).
const FieldSelectCaughtDefaultMDE mbopt.Field = "Select.Caught.DefaultMDE"

// CaughtSuite is what the optimize.Caught objective kept: the suite it
// chose catches, at Slowdown, Suite of the application's CPU time, and
// the whole suite Whole (the caught curve at Slowdown). Without a budget,
// Top, MinGain or excluded benchmarks, Suite equals Whole: dropping the
// other benchmarks loses no function's detectability.
type CaughtSuite struct {
	// Slowdown is the slowdown the suite keeps what is caught at:
	// sensitivity.DefaultRecommendSlowdown, +10%.
	Slowdown float64
	// Suite is the application share (flat, 0..1) of the functions the
	// chosen suite would catch slowed down by Slowdown.
	Suite float64
	// Whole is the same share for the whole suite.
	Whole float64
	// Measured counts the benchmarks whose MDE was measured
	// (SelectConfig.Caught.MDEs); the others took the default.
	Measured int

	rel *sensitivity.Relation
}

// selectCaught runs the caught objective with plan's budget, costs, limits
// and exclusions: sensitivity.Relation.Select over "b catches f" at +10%,
// the benchmarks weighed as [SensitivityBenchmarks] weighs them with the
// MDEs of cfg.Select.Caught. It sets rep.Caught and returns the selection
// with each step's coverage figures (what the pick adds to the suite's
// coverage, optimize.Trace) in place of the relation's, its gains staying
// the application shares newly caught.
func selectCaught(ctx context.Context, cfg Config, rep *Report, plan optimize.Plan) (*optimize.Selection, error) {
	mdes := cfg.Select.Caught
	benches, err := SensitivityBenchmarks(ctx, rep, mdes.MDEs)
	if err != nil {
		return nil, mbopt.Errorf("%s caught: %w; or choose another objective", FieldSelectObjective, err)
	}
	rel, err := sensitivity.NewRelation(rep.Coverage.App, benches, sensitivity.Options{DefaultMDE: mdes.DefaultMDE, AppShares: measuredShares(applicationOf(rep.Coverage.App))}, 0)
	if err != nil {
		return nil, err
	}
	sel, err := rel.Select(plan)
	if err != nil {
		return nil, err
	}
	suite, err := optimize.Trace(rep.Coverage, sel.IDs(), optimize.Options{Nodes: cfg.Nodes, Impact: cfg.Impact})
	if err != nil {
		return nil, err
	}
	for i := range sel.Steps {
		st := &sel.Steps[i]
		st.Step = suite.Steps[i]
		// Marginal by coverage and by what it catches: a pick that
		// catches 1% of the application or more earns its place.
		st.Marginal = st.Marginal && st.Gain < optimize.MarginalShare
	}
	// The weights are the application's shares, not scenarios'.
	sel.Nodes, sel.Covered, sel.Weighted = cfg.Nodes, suite.Covered, false
	rep.Caught = &CaughtSuite{Slowdown: rel.Slowdown, Suite: sel.TotalGain, Whole: rel.Caught(), rel: rel}
	for _, b := range benches {
		if b.MDE > 0 {
			rep.Caught.Measured++
		}
	}
	return sel, nil
}

// certifyCaught sets rep.Certificate to the bound on the smallest suite
// that catches what the whole suite catches, certifying the caught
// objective's suite without a budget or limits (rep's own when it had
// none), as the other objectives certify Algorithm 2's suite.
func certifyCaught(rep *Report, costs map[string]float64) error {
	rel := rep.Caught.rel
	size := len(rep.Selection.Steps)
	if rep.Selection.Stop != optimize.StopComplete {
		full, err := rel.Select(optimize.Plan{Costs: costs})
		if err != nil {
			return err
		}
		size = len(full.Steps)
	}
	c, err := rel.Certify(size, 0)
	if err != nil {
		rep.Warnings = append(rep.Warnings, &NoCertificateWarning{Err: err})
		return nil
	}
	rep.Certificate = c
	return nil
}
