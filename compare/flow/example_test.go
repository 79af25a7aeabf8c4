package flow_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/measure"
)

// CompareSuite turns the suite an analysis selected into the benchmarks of
// a comparison of two revisions (here a suite of profiles named by their
// benchmark ids, as collections without a manifest name them).
func ExampleCompareSuite() {
	rep := &analysis.Report{Suite: &optimize.Result{Steps: []optimize.Step{
		{ID: "example.com/tinytsdb/query.BenchmarkQuery/sum(cpu)"},
		{ID: "example.com/tinytsdb/storage.BenchmarkSearch"},
	}}}
	var opt compare.Options
	if _, _, err := flow.CompareSuite(rep, nil, &opt); err != nil {
		log.Fatal(err)
	}
	for _, b := range opt.Benchmarks {
		fmt.Println(b.Package, b.Name)
	}
	// Output:
	// example.com/tinytsdb/query BenchmarkQuery/sum(cpu)
	// example.com/tinytsdb/storage BenchmarkSearch
}

// ReferenceApplication is what a comparison with an analysis stores in the
// history as the application's value: its reference profiles' total.
func ExampleReferenceApplication() {
	rep := &analysis.Report{AppProfiles: []string{"profiles/app-ingest.pprof", "profiles/app-query.pprof"},
		Coverage: &coverage.Result{App: &callgraph.Graph{Total: 25.35, Unit: "seconds"}}}
	app := flow.ReferenceApplication(rep)
	fmt.Printf("%s: %.2f %s (%s)\n", app.Name, app.Value, app.Unit, app.Source)
	// Output:
	// app-ingest.pprof + app-query.pprof: 25.35 CPU seconds (reference profile)
}

// Compare checks its configuration before it opens the history or runs a
// benchmark: here two sources of benchmarks, a suite file and a -bench
// pattern. A command line names the settings by its flags (mbopt compare:
// --suite, --app, --micro, --bench).
func ExampleCompare() {
	_, err := flow.Compare(context.Background(), flow.CompareConfig{
		Options:   compare.Options{Bench: "Query"},
		SuiteFile: "suite.json",
	})
	fmt.Println(err)
	// Output:
	// Config.SuiteFile, the analysis flags (Config.Analysis.App, Config.Analysis.Micro) and Config.Bench each choose the benchmarks; give one of them (the analysis flags with Config.Bench weigh the pattern's benchmarks by the application)
}

// Resolve settles what a caller left to the defaults (zero): here, as on
// mbopt compare's command line, only the metric is set, so the A/A
// comparison gates on nothing, and the counting metric takes its own count
// and bench time (compare.Run) instead of the defaults for wall time. A
// gate on application impact needs the analysis.
func ExampleCompareConfig_Resolve() {
	cfg := flow.CompareConfig{Options: compare.Options{AA: true}}
	cfg.Settings.Metric = measure.Instructions
	if err := cfg.Resolve(); err != nil {
		panic(err)
	}
	fmt.Printf("fail on %s, count %d, bench time %q\n", cfg.FailOn, cfg.Settings.Count, cfg.Settings.BenchTime)

	cfg = flow.CompareConfig{FailOn: compare.FailOnAppImpact}
	fmt.Println(cfg.Resolve())
	// Output:
	// fail on never, count 0, bench time ""
	// Config.FailOn app-impact needs the analysis flags (Config.Analysis.App, Config.Analysis.Micro): the application's profile says which functions it runs
}
