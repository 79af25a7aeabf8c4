package report

import (
	"github.com/mbopt/mbopt/optimize"
)

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

// certificateOf describes c; nil when there is none.
func certificateOf(c *optimize.Certificate) *Certificate {
	if c == nil {
		return nil
	}
	return &Certificate{
		Criterion: c.Nodes.String(), Greedy: c.Greedy, LowerBound: c.LowerBound, Gap: c.Gap(),
		LP: c.LP, Solved: c.Solved, Skipped: c.Skipped, Essential: c.Essential, Rows: c.Rows, Cols: c.Cols,
	}
}
