package report

import (
	"fmt"
	"strings"

	"github.com/mbopt/mbopt/relevance/analysis"

	"github.com/mbopt/mbopt/internal/textutil"
)

// SuiteCost compares the running cost of Algorithm 2's suite with the
// cheapest suite of the same coverage and, when another objective or a
// budget chose the suite, with that suite's (see analysis.SuiteCost).
// Seconds.
type SuiteCost struct {
	// Source is where the costs came from: "file", "config", "manifest"
	// or "profiles" (each profile's recorded duration).
	Source string `json:"source"`
	// SourceFiles are the costs file or the manifest files; empty for
	// the other sources.
	SourceFiles []string `json:"source_files"`
	// Algorithm2Seconds is the cost of Algorithm 2's suite.
	Algorithm2Seconds float64 `json:"algorithm2_seconds"`
	// Algorithm2Benchmarks is the number of benchmarks in it.
	Algorithm2Benchmarks int `json:"algorithm2_benchmarks"`
	// CheapestSeconds is the cost of the --objective cost suite, which
	// covers the same counted functions.
	CheapestSeconds float64 `json:"cheapest_seconds"`
	// CheapestBenchmarks is the number of benchmarks in it.
	CheapestBenchmarks int `json:"cheapest_benchmarks"`
	// Selected is the cost of the selected suite when a selection other
	// than the cost objective's chose it; absent when the suite is
	// Algorithm 2's or the cheapest.
	Selected *SelectedCost `json:"selected,omitempty"`
}

// SelectedCost is the running cost of the selected suite (see
// analysis.SelectedCost). Seconds.
type SelectedCost struct {
	// Objective is the selection's objective: "nodes", "impact" or
	// "caught".
	Objective string `json:"objective"`
	// Weighted reports that the scenarios' weights weighed the picks.
	Weighted bool `json:"weighted,omitempty"`
	// BudgetSeconds is the selection's budget; absent when none.
	BudgetSeconds float64 `json:"budget_seconds,omitempty"`
	// Seconds sums the suite's benchmark costs.
	Seconds float64 `json:"seconds"`
	// Benchmarks is the number of benchmarks in the suite.
	Benchmarks int `json:"benchmarks"`
}

// CostCertificate bounds the cost of the cheapest suite with Algorithm 2's
// coverage (see optimize.CertifyCost). Seconds.
type CostCertificate struct {
	// Criterion is the counted nodes: "project" or "all".
	Criterion string `json:"criterion"`
	// CostSeconds is the --objective cost suite's cost.
	CostSeconds float64 `json:"cost_seconds"`
	// Algorithm2Seconds is Algorithm 2's suite's cost.
	Algorithm2Seconds float64 `json:"algorithm2_seconds"`
	// LowerBoundSeconds is a lower bound on the cheapest suite's cost.
	LowerBoundSeconds float64 `json:"lower_bound_seconds"`
	// LP is the weighted LP relaxation's optimum, when Solved.
	LP float64 `json:"lp"`
	// Solved reports whether the LP was solved.
	Solved bool `json:"solved"`
	// Skipped says why the LP was not solved; absent when it was.
	Skipped string `json:"skipped,omitempty"`
	// EssentialSeconds sums the costs of the benchmarks that alone cover
	// some node.
	EssentialSeconds float64 `json:"essential_seconds"`
	// Rows is the LP's number of rows (nodes) after the reductions.
	Rows int `json:"lp_rows"`
	// Cols is the LP's number of columns (benchmarks) after the
	// reductions.
	Cols int `json:"lp_cols"`
}

// addCosts fills the Document's cost sections.
func addCosts(d *Document, rep *analysis.Report) {
	if c := rep.SuiteCost; c != nil {
		d.SuiteCost = &SuiteCost{
			Source: string(c.Source.Kind), SourceFiles: nonNil(c.Source.Files),
			Algorithm2Seconds: ns(c.Algorithm2), Algorithm2Benchmarks: c.Algorithm2Size,
			CheapestSeconds: ns(c.Cheapest), CheapestBenchmarks: c.CheapestSize,
		}
		if sel := c.Selected; sel != nil {
			d.SuiteCost.Selected = &SelectedCost{Objective: sel.Objective.String(), Weighted: sel.Weighted,
				BudgetSeconds: ns(sel.Budget), Seconds: ns(sel.Seconds), Benchmarks: sel.Size}
		}
	}
	if c := rep.CostCertificate; c != nil {
		d.CostCertificate = &CostCertificate{
			Criterion: c.Nodes.String(), CostSeconds: ns(c.Cost), Algorithm2Seconds: ns(c.Greedy),
			LowerBoundSeconds: ns(c.LowerBound), LP: c.LP, Solved: c.Solved, Skipped: c.Skipped,
			EssentialSeconds: ns(c.Essential), Rows: c.Rows, Cols: c.Cols,
		}
	}
}

// costSource describes where costs came from, for people.
func costSource(source string, files []string) string {
	switch source {
	case "profiles":
		return "each profile's recorded duration"
	case "manifest":
		return "the collection manifest " + strings.Join(files, ", ")
	case "file":
		return strings.Join(files, ", ")
	case "config":
		return "the costs given to the analysis"
	}
	return source
}

// SuiteCostText is the one-line comparison of Algorithm 2's suite cost with
// the cheapest equal-coverage suite's, shown in every report after "suite
// cost:" or a heading; when another objective or a budget chose the suite
// (c.Selected), it starts with that suite's cost: "selected suite
// (--objective caught) 0.53s (2 benchmarks); ".
func SuiteCostText(c *SuiteCost) string {
	var b strings.Builder
	if s := c.Selected; s != nil {
		how := "--objective " + s.Objective
		if s.Weighted {
			how += ", weighted by scenario"
		}
		if s.BudgetSeconds > 0 {
			how += ", --budget " + secs(s.BudgetSeconds)
		}
		fmt.Fprintf(&b, "selected suite (%s) %s (%s); ", how, secs(s.Seconds), textutil.Plural(s.Benchmarks, "benchmark"))
	}
	fmt.Fprintf(&b, "Algorithm 2 %s (%s); ", secs(c.Algorithm2Seconds), textutil.Plural(c.Algorithm2Benchmarks, "benchmark"))
	if c.CheapestSeconds < c.Algorithm2Seconds {
		fmt.Fprintf(&b, "cheapest with the same coverage %s (%s, --objective cost)", secs(c.CheapestSeconds), textutil.Plural(c.CheapestBenchmarks, "benchmark"))
	} else {
		b.WriteString("no cheaper suite with the same coverage found (--objective cost)")
	}
	fmt.Fprintf(&b, "; costs from %s", costSource(c.Source, c.SourceFiles))
	return b.String()
}

// CostCertificateText is the one-line reading of c shown in every report.
func CostCertificateText(c *CostCertificate) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The --objective cost suite costs %s; any suite with the same %s coverage costs at least %s", secs(c.CostSeconds), c.Criterion, secs(c.LowerBoundSeconds))
	if c.Solved {
		fmt.Fprintf(&b, " (weighted LP relaxation optimum %.3f s over %s × %s after reduction)", c.LP, textutil.Plural(c.Rows, "node"), textutil.Plural(c.Cols, "benchmark"))
	} else {
		fmt.Fprintf(&b, " (benchmarks that alone cover some node; LP skipped: %s)", c.Skipped)
	}
	switch {
	case c.CostSeconds <= c.LowerBoundSeconds*(1+1e-9):
		b.WriteString(", so it is the cheapest.")
	case c.LowerBoundSeconds > 0:
		fmt.Fprintf(&b, ", so it costs at most %.2f× the cheapest.", c.CostSeconds/c.LowerBoundSeconds)
	default:
		b.WriteString(".")
	}
	return b.String()
}
