package report

import (
	"fmt"
	"strings"

	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/optimize"
)

// Certificate bounds the smallest suite with the minimal suite's coverage
// (see optimize.Certify).
type Certificate struct {
	// Criterion is the counted nodes, "project" or "all", as in
	// [Document.Criterion].
	Criterion string `json:"criterion"`
	// Objective is "caught" when the certificate bounds the smallest
	// suite that catches what the whole suite catches (the caught
	// objective's suite, Greedy its size); absent for Algorithm 2's.
	Objective string `json:"objective,omitempty"`
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
func certificateOf(c *optimize.Certificate, caught bool) *Certificate {
	if c == nil {
		return nil
	}
	objective := ""
	if caught {
		objective = optimize.Caught.String()
	}
	return &Certificate{Objective: objective,
		Criterion: c.Nodes.String(), Greedy: c.Greedy, LowerBound: c.LowerBound, Gap: c.Gap(),
		LP: c.LP, Solved: c.Solved, Skipped: c.Skipped, Essential: c.Essential, Rows: c.Rows, Cols: c.Cols,
	}
}

// CertificateText is the one-line reading of c shown in every report.
func CertificateText(c *Certificate) string {
	var b strings.Builder
	if c.Objective == optimize.Caught.String() {
		fmt.Fprintf(&b, "The caught objective's suite has %s; any suite that catches what the whole suite catches needs at least %d", textutil.Plural(c.Greedy, "benchmark"), c.LowerBound)
	} else {
		fmt.Fprintf(&b, "Algorithm 2's suite has %s; any suite with the same %s coverage needs at least %d", textutil.Plural(c.Greedy, "benchmark"), c.Criterion, c.LowerBound)
	}
	if c.Solved {
		fmt.Fprintf(&b, " (LP relaxation optimum %.3f over %s × %s after reduction)", c.LP, textutil.Plural(c.Rows, "node"), textutil.Plural(c.Cols, "benchmark"))
	} else {
		fmt.Fprintf(&b, " (benchmarks that alone cover some node; LP skipped: %s)", c.Skipped)
	}
	switch c.Gap {
	case 0:
		b.WriteString(", so it is optimal.")
	default:
		fmt.Fprintf(&b, ", so it is at most %s larger than the optimum (gap %d, ratio ≤ %.2f).", textutil.Plural(c.Gap, "benchmark"), c.Gap, float64(c.Greedy)/float64(max(c.LowerBound, 1)))
	}
	return b.String()
}
