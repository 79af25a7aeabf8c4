package report

import (
	"github.com/mbopt/mbopt/optimize"
)

// Certificate bounds the smallest suite with the minimal suite's coverage
// (see optimize.Certify).
type Certificate struct {
	// Criterion is the counted nodes, "project" or "all", as in
	// [Document.Criterion].
	Criterion string `json:"criterion"`
	// Greedy is Algorithm 2's suite size; LowerBound a lower bound on the
	// smallest; Gap their difference.
	Greedy int `json:"greedy"`
	// LowerBound is a lower bound on the size of the smallest suite with
	// the same coverage: max(⌈LP⌉, Essential).
	LowerBound int `json:"lower_bound"`
	// Gap is Greedy − LowerBound (≥ 0): the minimal suite has at most
	// that many benchmarks more than the smallest; 0 proves it optimal.
	Gap int `json:"gap"`
	// LP is the LP relaxation's optimum, when Solved; Skipped says why
	// not. Essential counts benchmarks that alone cover some node.
	LP float64 `json:"lp"`
	// Solved reports whether the LP was solved.
	Solved bool `json:"solved"`
	// Skipped says why the LP was not solved (too large); omitted when
	// Solved.
	Skipped string `json:"skipped,omitempty"`
	// Essential counts the benchmarks that alone cover some counted node
	// (every full cover contains them).
	Essential int `json:"essential"`
	// Rows counts the LP's rows (counted nodes) after duplicate and
	// dominated ones are removed.
	Rows int `json:"lp_rows"`
	// Cols counts the LP's columns (benchmarks) after the same reduction.
	Cols int `json:"lp_cols"`
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
