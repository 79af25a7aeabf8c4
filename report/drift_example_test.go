package report_test

import (
	"log"
	"os"

	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/report"
)

// A drift check's findings as mbopt check prints them.
func ExampleWriteDriftText() {
	d := &analysis.Drift{Benchmarks: 2, Findings: []analysis.DriftFinding{{
		Kind: analysis.DriftMissing, Package: "example.com/m/query", Benchmark: "BenchmarkQuery",
		Message: "example.com/m/query.BenchmarkQuery is no longer declared: removed or renamed",
	}}}
	if err := report.WriteDriftText(os.Stdout, "suite.json", ".", d); err != nil {
		log.Fatal(err)
	}
	// Output:
	// mbopt: drift check of suite.json (2 benchmarks) against .
	//   missing  example.com/m/query.BenchmarkQuery is no longer declared: removed or renamed
}
