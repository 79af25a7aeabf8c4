package verdict_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/report/verdict"
)

// WriteText leads with the detection that matters most for the
// application: here a definite regression in a benchmark whose functions
// take a third of the application's CPU time, ahead of a larger change in
// a benchmark that barely matters.
func ExampleWriteText() {
	est := func(change, lo, hi float64) *benchstats.Estimate {
		return &benchstats.Estimate{Change: change, CI: benchstats.Interval{Low: lo, High: hi}}
	}
	r := &compare.Report{
		Schema: compare.SchemaVersion,
		Module: "example.com/tinytsdb",
		Base:   compare.Revision{Spec: "main", Commit: "0123456789abcdef"},
		Head:   compare.Revision{Spec: "HEAD", Commit: "fedcba9876543210"},
		Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Seed: 1,
			Threshold: 0.01, Confidence: 0.99, Resamples: 10000},
		Results: []compare.Result{{
			ID: "example.com/tinytsdb/encoding.BenchmarkParse", Package: "example.com/tinytsdb/encoding", Name: "BenchmarkParse",
			Unit: "sec/op", Status: compare.Compared, Estimate: est(0.41, 0.35, 0.47), Instability: 0.12,
			Verdict: benchstats.DefiniteRegression, Impact: &callgraph.Impact{Attributed: 0.055, Flat: 0.168},
		}, {
			ID: "example.com/tinytsdb/storage.BenchmarkSearch", Package: "example.com/tinytsdb/storage", Name: "BenchmarkSearch",
			Unit: "sec/op", Status: compare.Compared, Estimate: est(0.12, 0.10, 0.15), Instability: 0.05,
			Verdict: benchstats.DefiniteRegression, Impact: &callgraph.Impact{Attributed: 0.34, Flat: 0.41},
		}},
	}
	if err := verdict.WriteText(os.Stdout, r); err != nil {
		panic(err)
	}
	// Output:
	// mbopt compare: example.com/tinytsdb, wall time per operation (--metric instructions counts instructions under Valgrind, steadier on a shared machine)
	//
	// base  main  0123456789ab
	// head  HEAD  fedcba987654
	//
	// A definite regression of +12.0% in storage.BenchmarkSearch (sec/op, 99% CI +10.0% … +15.0%), which covers 34.0% of the application's CPU time (41.0% flat).
	// In all: 2 definite regressions.
	//
	// Changes (beyond the threshold band)
	//   verdict              change           99% CI  instability  impact   flat    unit  benchmark
	//   definite regression  +41.0%  +35.0% … +47.0%       12.0pp    5.5%  16.8%  sec/op  encoding.BenchmarkParse
	//   definite regression  +12.0%  +10.0% … +15.0%        5.0pp   34.0%  41.0%  sec/op  storage.BenchmarkSearch
	//
	// impact: the share of the application's CPU time attributed to the functions a benchmark covers; flat: the share
	// of their flat time (the paper's reference impact); instability: the interval's width in percentage points
	// 3 trials × 3 runs × 5 iterations per version at benchtime 1s
	// Change of the medians with a 99% confidence interval from 10000 hierarchical bootstrap resamples (seed 1); threshold ±1%
}

// Write picks the rendering by the name of its format, and returns the step
// summary of the github format for the caller to append.
func ExampleWrite() {
	r := &compare.Report{Schema: compare.SchemaVersion, Module: "example.com/m",
		Base: compare.Revision{Commit: "0123456789abcdef"}, Head: compare.Revision{Commit: "fedcba9876543210"}}
	for _, format := range verdict.Formats {
		sum, err := verdict.Write(io.Discard, r, format)
		fmt.Println(format, sum != nil, err)
	}
	// Output:
	// text false <nil>
	// json false <nil>
	// markdown false <nil>
	// github true <nil>
}

// Document is what a command prints: with github and no step summary file,
// the summary follows the annotations; a summary file that cannot be
// appended to is bad input naming the setting (mbopt:
// $GITHUB_STEP_SUMMARY).
func ExampleDocument() {
	r := &compare.Report{Schema: compare.SchemaVersion, Module: "example.com/m",
		Base: compare.Revision{Commit: "0123456789abcdef"}, Head: compare.Revision{Commit: "fedcba9876543210"}}
	out, err := verdict.Document(r, "github", "")
	fmt.Println(strings.Contains(string(out), "fedcba9876"), err)
	_, err = verdict.Document(r, "github", os.TempDir())
	fmt.Println(errors.Is(err, mbopt.ErrInput))
	// Output:
	// true <nil>
	// true
}
