package compare_test

import (
	"fmt"
	"log"

	"github.com/mbopt/mbopt/compare"
)

// Analyze computes a report from the raw files of a comparison: here two
// small files of three trials × two runs × count 3, in which the head's
// BenchmarkEncode takes 25% longer.
func ExampleAnalyze() {
	s := compare.DefaultSettings()
	s.Resamples = 1000
	rep, err := compare.Analyze([]string{"testdata/base.txt", "testdata/head.txt"}, s, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rep.Results {
		fmt.Printf("%s %s %+.1f%% %s\n", r.ID, r.Unit, 100*r.Estimate.Change, r.Verdict)
	}
	fmt.Println(rep.Gate(compare.FailOnDefiniteRegression)[0].Name, "fails the default gate")
	// Output:
	// example.com/codec.BenchmarkEncode sec/op +25.0% definite-regression
	// example.com/codec.BenchmarkDecode sec/op +0.0% unchanged
	// BenchmarkEncode fails the default gate
}
