package report

import (
	"fmt"

	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/report/internal/render"
)

// Selection describes a suite chosen beyond Algorithm 2 (see
// optimize.Select); the picks themselves are [Document.MinimalSuite].
type Selection struct {
	// Objective is "nodes", "impact", "cost" or "caught"; Weighted
	// reports per-scenario node weights.
	Objective string `json:"objective"`
	// Caught is what the caught objective's suite keeps of what the
	// whole suite would catch; absent under the other objectives.
	Caught *CaughtKept `json:"caught,omitempty"`
	// Weighted reports whether nodes were weighted by the weights of
	// scenarios given with one (NAME=FILE:WEIGHT).
	Weighted bool `json:"weighted"`
	// BudgetSeconds is the cost budget, 0 for none.
	BudgetSeconds float64 `json:"budget_seconds"`
	// Stop says why the selection ended: "complete", "top", "min-gain" or
	// "budget".
	Stop string `json:"stop"`
	// Safeguard reports that the plan's fallback won: under a budget, the
	// single best benchmark within the budget replaced the
	// cost-effectiveness greedy's picks; under the cost objective,
	// Algorithm 2's suite (redundant picks removed) was cheaper than the
	// cost-weighted greedy's.
	Safeguard bool `json:"safeguard"`
	// GreedyGain is the budgeted greedy's total gain when Safeguard
	// replaced its picks, 0 otherwise.
	GreedyGain float64 `json:"greedy_gain"`
	// GreedyCostSeconds is, under the cost objective, the cost of the
	// cost-weighted greedy's suite after its reverse-delete pass; absent
	// otherwise.
	GreedyCostSeconds float64 `json:"greedy_cost_seconds,omitempty"`
	// Dropped lists, under the cost objective, the picks its
	// reverse-delete pass removed, in removal order.
	Dropped []string `json:"dropped,omitempty"`
	// TotalGain and TotalCostSeconds sum the picks' gains and costs.
	TotalGain float64 `json:"total_gain"`
	// TotalCostSeconds sums the picks' costs, in seconds.
	TotalCostSeconds float64 `json:"total_cost_seconds"`
	// Steps are the picks in order, with what the objective saw.
	Steps []SelectionStep `json:"steps"`
}

// SelectionStep is one pick's gain and cost.
type SelectionStep struct {
	// ID is the picked benchmark's id.
	ID string `json:"id"`
	// Gain is what the pick adds in the objective's unit: counted nodes,
	// their flat time in seconds, their summed weights, or (caught) the
	// application share of the functions it newly catches.
	Gain float64 `json:"gain"`
	// CostSeconds is the benchmark's cost in seconds (0 without costs).
	CostSeconds float64 `json:"cost_seconds"`
	// CumulativeCostSeconds sums CostSeconds over this and all earlier
	// picks; it stays within Selection.BudgetSeconds when there is one.
	CumulativeCostSeconds float64 `json:"cumulative_cost_seconds"`
	// CumulativeGain sums Gain over this and all earlier picks.
	CumulativeGain float64 `json:"cumulative_gain"`
	// CumulativeImpactFraction is the application flat time covered by
	// this and all earlier picks over the application's total, in [0, 1].
	CumulativeImpactFraction float64 `json:"cumulative_impact_share"`
	// CumulativeAttributedImpactShare is the attributed counterpart of
	// CumulativeImpactFraction.
	CumulativeAttributedImpactShare float64 `json:"cumulative_attributed_impact_share"`
}

// CaughtKept is what the caught objective's suite keeps (see
// analysis.CaughtSuite): the share of the application's CPU time (its
// instructions, under Application.Unit) in
// functions whose slowdown by Slowdown it would report, beside the whole
// suite's.
type CaughtKept struct {
	// Slowdown is the slowdown, a fraction (0.1 is +10%).
	Slowdown float64 `json:"slowdown"`
	// SuiteShare is the application share (0..1) the suite catches.
	SuiteShare float64 `json:"suite_app_share"`
	// WholeShare is the application share the whole suite catches.
	WholeShare float64 `json:"whole_app_share"`
	// MeasuredMDEs counts the benchmarks whose minimum detectable effect
	// was measured (the others took the typical value).
	MeasuredMDEs int `json:"measured_mdes"`
	// Benchmarks counts the benchmarks of the whole suite.
	Benchmarks int `json:"benchmarks"`
}

// CaughtText is the one-line reading of c shown under the suite in every
// report; history is the history database the measured MDEs came from
// (Document.MDEHistory), "" when none; unit is the application's
// (Application.Unit), "" for CPU profiles: the shares are of the
// application's CPU, or of its instructions.
func CaughtText(c *CaughtKept, history, unit string) string {
	app := render.AppMeasure(unit, "CPU")
	kept := fmt.Sprintf("The suite keeps what the whole suite would catch: a +%s slowdown would be caught in functions that take %s of the application's %s", render.Pct(c.Slowdown), render.Pct(c.SuiteShare), app)
	if c.SuiteShare < c.WholeShare-1e-12 {
		kept = fmt.Sprintf("A +%s slowdown would be caught in functions that take %s of the application's %s with the suite, %s with the whole suite", render.Pct(c.Slowdown), render.Pct(c.SuiteShare), app, render.Pct(c.WholeShare))
	}
	mdes := fmt.Sprintf("%d of %d measured, the others the typical value", c.MeasuredMDEs, c.Benchmarks)
	switch c.MeasuredMDEs {
	case 0:
		mdes = "none measured: the typical value of the profiles' source"
	case c.Benchmarks:
		mdes = "every one measured"
	}
	if c.MeasuredMDEs > 0 && history != "" {
		mdes += ", in the comparisons in " + history
	}
	return fmt.Sprintf("%s (minimum detectable effects: %s).", kept, mdes)
}

// selectionOf describes rep's selection; nil for plain Algorithm 2.
func selectionOf(rep *analysis.Report) *Selection {
	sel := rep.Selection
	if sel == nil {
		return nil
	}
	s := &Selection{
		Objective: sel.Objective.String(), Weighted: sel.Weighted, BudgetSeconds: sel.Budget,
		Stop: string(sel.Stop), Safeguard: sel.Safeguard, GreedyGain: sel.GreedyGain,
		GreedyCostSeconds: ns(sel.GreedyCost), Dropped: sel.Dropped,
		TotalGain: sel.TotalGain, TotalCostSeconds: sel.TotalCost, Steps: []SelectionStep{},
	}
	if c := rep.Caught; c != nil {
		s.Caught = &CaughtKept{Slowdown: c.Slowdown, SuiteShare: c.Suite, WholeShare: c.Whole, MeasuredMDEs: c.Measured, Benchmarks: len(rep.Coverage.Sets)}
	}
	for _, st := range sel.Steps {
		s.Steps = append(s.Steps, SelectionStep{
			ID: st.ID, Gain: st.Gain, CostSeconds: st.Cost, CumulativeCostSeconds: st.CumulativeCost,
			CumulativeGain: st.CumulativeGain, CumulativeImpactFraction: rep.Coverage.Share(st.CumulativeImpactSeconds),
			CumulativeAttributedImpactShare: rep.Coverage.Share(st.CumulativeAttributedImpactSeconds),
		})
	}
	return s
}
