package compare_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
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

// An A/A comparison (AA) compares the head with itself to measure how
// unstable each benchmark is; it takes no base, and the head must be a
// commit.
func ExampleOptions_aa() {
	for _, opt := range []compare.Options{{AA: true, Base: "main"}, {AA: true, Head: compare.Worktree}} {
		_, err := compare.Run(context.Background(), opt)
		fmt.Println(err)
	}
	// Output:
	// Options.AA compares the head with itself: leave Options.Base unset
	// Options.AA calibrates on a commit: Options.Head worktree has uncommitted changes that the history cannot name
}

// GateError names each benchmark that fails a gate once, with the units
// that did.
func ExampleReport_GateError() {
	rep := &compare.Report{Results: []compare.Result{
		{ID: "example.com/m.BenchmarkQuery", Unit: "sec/op", Status: compare.Compared, Verdict: benchstats.DefiniteRegression},
		{ID: "example.com/m.BenchmarkQuery", Unit: "B/op", Status: compare.Compared, Verdict: benchstats.DefiniteRegression},
		{ID: "example.com/m.BenchmarkWrite", Unit: "sec/op", Status: compare.Compared, Verdict: benchstats.PotentialRegression},
	}}
	fmt.Println(rep.GateError(compare.FailOnDefiniteRegression))
	fmt.Println(rep.GateError(compare.FailOnAnyRegression))
	fmt.Println(rep.GateError(compare.FailOnNever))
	// Output:
	// FailOn definite-regression: the gate failed on 1 benchmark: example.com/m.BenchmarkQuery (sec/op, B/op)
	// FailOn any-regression: the gate failed on 2 benchmarks: example.com/m.BenchmarkQuery (sec/op, B/op), example.com/m.BenchmarkWrite (sec/op)
	// <nil>
}
