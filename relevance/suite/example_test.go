package suite_test

import (
	"os"

	"github.com/mbopt/mbopt/relevance/suite"
)

// Plan turns a selection into one go test command per package. The two
// sub-benchmarks of BenchmarkEncode share a parent, so they share one
// alternative; BenchmarkDecode/n=1 is kept apart so that BenchmarkDecode/n=10
// and BenchmarkEncode/n=1 are not selected by accident.
func ExamplePlan() {
	sel := []suite.Benchmark{
		{Package: "example.com/tinytsdb/encoding", Name: "BenchmarkEncode/n=100"},
		{Package: "example.com/tinytsdb/encoding", Name: "BenchmarkDecode/n=1"},
		{Package: "example.com/tinytsdb/storage", Name: "BenchmarkAppend"},
		{Package: "example.com/tinytsdb/encoding", Name: "BenchmarkEncode/n=10"},
	}
	invs, err := suite.Plan(sel, suite.Options{Flags: []string{"-count", "6"}})
	if err != nil {
		panic(err)
	}
	if err := suite.Write(os.Stdout, invs, suite.FormatShell); err != nil {
		panic(err)
	}
	// Output:
	// go test -run '^$' -bench '^BenchmarkDecode$/^n=1$|^BenchmarkEncode$/^(n=10|n=100)$' -count 6 example.com/tinytsdb/encoding
	// go test -run '^$' -bench '^BenchmarkAppend$' -count 6 example.com/tinytsdb/storage
}
