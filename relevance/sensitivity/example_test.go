package sensitivity_test

import (
	"fmt"

	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/sensitivity"
)

// A function that takes 40% of the application but 0.1% of the only
// benchmark that runs it: the suite covers it, yet would notice only a
// +1500% slowdown of it (a definite regression needs its benchmark's
// interval, ±0.5%, beyond the 1% threshold: a move of 1.5%), and it is
// the first recommendation.
func ExampleCompute() {
	app, benches := issueModule()
	r, err := sensitivity.Compute(app, benches, sensitivity.Options{})
	if err != nil {
		panic(err)
	}
	for _, f := range r.Functions {
		if f.DetectableSlowdown == nil {
			fmt.Printf("%-16s %3.0f%% of the application: never caught\n", f.Function, 100*f.AppShare)
			continue
		}
		fmt.Printf("%-16s %3.0f%% of the application: caught from %+.1f%% by %s\n", f.Function, 100*f.AppShare, 100**f.DetectableSlowdown, f.Benchmark)
	}
	fmt.Printf("a %.0f%% slowdown would be caught in functions that take %.0f%% of the application's CPU\n", 100*r.Caught[2].Slowdown, 100*r.Caught[2].AppShare)
	fmt.Println("first recommendation:", r.Recommendations[0].Function.Function)
	// Output:
	// m.Parse           40% of the application: caught from +1500.0% by m.BenchmarkServe
	// runtime.mallocgc  30% of the application: caught from +3.0% by m.BenchmarkServe
	// m.Hash            20% of the application: caught from +1.5% by m.BenchmarkHash
	// m.Serve           10% of the application: caught from +3.0% by m.BenchmarkServe
	// a 10% slowdown would be caught in functions that take 60% of the application's CPU
	// first recommendation: m.Parse
}

// Coverage keeps BenchmarkWide alone, since it runs both functions; but
// m.Hot is 0.1% of its work, so a +10% slowdown of m.Hot would go
// unnoticed. The caught objective keeps BenchmarkHot for it.
func ExampleRelation_Select() {
	app, benches := coveredTwice()
	rel, err := sensitivity.NewRelation(app, benches, sensitivity.Options{}, 0.10)
	if err != nil {
		panic(err)
	}
	sel, err := rel.Select(optimize.Plan{})
	if err != nil {
		panic(err)
	}
	for _, st := range sel.Steps {
		fmt.Printf("%s catches %.0f%% more of the application\n", st.ID, 100*st.Gain)
	}
	fmt.Printf("the suite catches %.0f%%, the whole suite %.0f%%\n", 100*sel.TotalGain, 100*rel.Caught())
	// Output:
	// m.BenchmarkHot catches 50% more of the application
	// m.BenchmarkWide catches 50% more of the application
	// the suite catches 100%, the whole suite 100%
}
