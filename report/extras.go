package report

import (
	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/bitset"
	"github.com/mbopt/mbopt/coverage"
)

// Selection describes a suite chosen beyond Algorithm 2 (see
// optimize.Select); the picks themselves are [Document.MinimalSuite].
type Selection struct {
	// Objective is "nodes" or "impact"; Weighted reports per-scenario
	// node weights.
	Objective string `json:"objective"`
	Weighted  bool   `json:"weighted"`
	// BudgetSeconds is the cost budget, 0 for none.
	BudgetSeconds float64 `json:"budget_seconds"`
	// Stop says why the selection ended: "complete", "top", "min-gain" or
	// "budget".
	Stop string `json:"stop"`
	// Safeguard reports that the single best benchmark within the budget
	// replaced the cost-effectiveness greedy's picks, whose gain was
	// GreedyGain.
	Safeguard  bool    `json:"safeguard"`
	GreedyGain float64 `json:"greedy_gain"`
	// TotalGain and TotalCostSeconds sum the picks' gains and costs.
	TotalGain        float64 `json:"total_gain"`
	TotalCostSeconds float64 `json:"total_cost_seconds"`
	// Steps are the picks in order, with what the objective saw.
	Steps []SelectionStep `json:"steps"`
}

// SelectionStep is one pick's gain and cost.
type SelectionStep struct {
	ID                       string  `json:"id"`
	Gain                     float64 `json:"gain"`
	CostSeconds              float64 `json:"cost_seconds"`
	CumulativeCostSeconds    float64 `json:"cumulative_cost_seconds"`
	CumulativeGain           float64 `json:"cumulative_gain"`
	CumulativeImpactFraction float64 `json:"cumulative_impact_share"`
}

// Certificate bounds the smallest suite with the minimal suite's coverage
// (see optimize.Certify).
type Certificate struct {
	Criterion string `json:"criterion"`
	// Greedy is Algorithm 2's suite size; LowerBound a lower bound on the
	// smallest; Gap their difference.
	Greedy     int `json:"greedy"`
	LowerBound int `json:"lower_bound"`
	Gap        int `json:"gap"`
	// LP is the LP relaxation's optimum, when Solved; Skipped says why
	// not. Essential counts benchmarks that alone cover some node.
	LP        float64 `json:"lp"`
	Solved    bool    `json:"solved"`
	Skipped   string  `json:"skipped,omitempty"`
	Essential int     `json:"essential"`
	Rows      int     `json:"lp_rows"`
	Cols      int     `json:"lp_cols"`
}

// Scenarios compares the application scenarios (the dissertation's
// Tables 6.3 and 6.4). Every list is in the order the scenarios were
// given.
type Scenarios struct {
	Names   []string           `json:"names"`
	Weights []float64          `json:"weights"`
	Each    []ScenarioCoverage `json:"coverage"`
	// Union is the suite's coverage of the union of all scenarios.
	Union Coverage `json:"union"`
	// Overall and Project are the pairwise overlaps over all nodes and
	// over project nodes.
	Overall Overlap `json:"overall_overlap"`
	Project Overlap `json:"project_overlap"`
	// SuiteProject[i][k] is scenario i's project-only coverage after the
	// first k+1 picks of the minimal suite (Figure 6.6, one line per
	// scenario).
	SuiteProject [][]float64 `json:"suite_project_curves"`
}

// ScenarioCoverage is the whole suite's coverage of one scenario.
type ScenarioCoverage struct {
	Name         string  `json:"name"`
	Nodes        int     `json:"nodes"`
	ProjectNodes int     `json:"project_nodes"`
	TotalSeconds float64 `json:"total_seconds"`
	Project      Ratio   `json:"project"`
	Overall      Ratio   `json:"overall"`
}

// Overlap is a pairwise overlap matrix: Counts[i][j] nodes shared by
// scenarios i and j, Shares[i][j] = Counts[i][j] / Sizes[i] (the share of
// the row scenario's nodes).
type Overlap struct {
	Sizes  []int       `json:"sizes"`
	Counts [][]int     `json:"counts"`
	Shares [][]float64 `json:"shares"`
	Unique []int       `json:"unique"`
	Union  int         `json:"union"`
	Common int         `json:"common"`
}

func overlapOf(o coverage.Overlap) Overlap {
	return Overlap{Sizes: o.Sizes, Counts: o.Counts, Shares: o.Shares, Unique: o.Unique, Union: o.Union, Common: o.Common}
}

// addExtras fills the Document's optional sections.
func addExtras(d *Document, rep *analysis.Report) {
	if sel := rep.Selection; sel != nil {
		s := &Selection{
			Objective: sel.Objective.String(), Weighted: sel.Weighted, BudgetSeconds: sel.Budget,
			Stop: string(sel.Stop), Safeguard: sel.Safeguard, GreedyGain: sel.GreedyGain,
			TotalGain: sel.TotalGain, TotalCostSeconds: sel.TotalCost, Steps: []SelectionStep{},
		}
		for _, st := range sel.Steps {
			s.Steps = append(s.Steps, SelectionStep{
				ID: st.ID, Gain: st.Gain, CostSeconds: st.Cost, CumulativeCostSeconds: st.CumulativeCost,
				CumulativeGain: st.CumulativeGain, CumulativeImpactFraction: rep.Coverage.Share(st.CumulativeImpactSeconds),
			})
		}
		d.Selection = s
	}
	if c := rep.Certificate; c != nil {
		d.Certificate = &Certificate{
			Criterion: c.Nodes.String(), Greedy: c.Greedy, LowerBound: c.LowerBound, Gap: c.Gap(),
			LP: c.LP, Solved: c.Solved, Skipped: c.Skipped, Essential: c.Essential, Rows: c.Rows, Cols: c.Cols,
		}
	}
	if ss := rep.Scenarios; ss != nil {
		s := &Scenarios{
			Names: ss.Names, Weights: ss.Weights,
			Union:   Coverage{Project: ratioOf(ss.Union.Project), Overall: ratioOf(ss.Union.Overall)},
			Overall: overlapOf(ss.Overall), Project: overlapOf(ss.Project),
		}
		for i, e := range ss.Each {
			s.Each = append(s.Each, ScenarioCoverage{
				Name: ss.Names[i], Nodes: e.App.Len(), ProjectNodes: e.App.ProjectLen(), TotalSeconds: e.App.Total,
				Project: ratioOf(e.Project), Overall: ratioOf(e.Overall),
			})
		}
		for _, m := range ss.Members {
			covered := bitset.New(ss.Union.App.Len())
			size := m.IntersectionLen(ss.Union.ProjectMask)
			curve := []float64{}
			for _, st := range rep.Suite.Steps {
				for _, id := range st.AddedNodes {
					covered.Add(id)
				}
				r := 0.0
				if size > 0 {
					both := covered.Clone()
					both.And(m)
					r = float64(both.IntersectionLen(ss.Union.ProjectMask)) / float64(size)
				}
				curve = append(curve, r)
			}
			s.SuiteProject = append(s.SuiteProject, curve)
		}
		d.Scenarios = s
	}
}
