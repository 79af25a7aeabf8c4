package benchstats_test

import (
	"fmt"

	"github.com/mbopt/mbopt/compare/benchstats"
)

// A benchmark measured in 2 trials × 2 runs × 3 iterations per version;
// the head is about 30% slower.
func Example() {
	base := benchstats.Hierarchy{
		{{100, 101, 99}, {102, 100, 98}},
		{{103, 101, 100}, {99, 100, 101}},
	}
	head := benchstats.Hierarchy{
		{{130, 131, 129}, {133, 130, 128}},
		{{134, 131, 130}, {129, 130, 132}},
	}
	e, err := benchstats.Compare(base, head, benchstats.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("change %+.1f%%, 99%% CI [%+.1f%%, %+.1f%%]\n", 100*e.Change, 100*e.CI.Low, 100*e.CI.High)
	fmt.Println(benchstats.Classify(e, 0.01, false))
	// Output:
	// change +30.0%, 99% CI [+27.7%, +32.7%]
	// definite-regression
}

// A run of three benchmarks: each estimate's bootstrap p-value goes
// through the run's false-discovery-rate correction, then [Judge] takes
// the verdict with the applied threshold.
func ExampleJudge() {
	same := benchstats.Hierarchy{{{100, 101, 99}, {100, 102, 98}}, {{101, 100, 99}, {99, 100, 101}}}
	slower := benchstats.Hierarchy{{{105, 106, 104}, {105, 107, 103}}, {{106, 105, 104}, {104, 105, 106}}}
	noisy := benchstats.Hierarchy{{{80, 120, 100}, {90, 130, 95}}, {{110, 85, 125}, {100, 95, 105}}}
	pairs := [][2]benchstats.Hierarchy{{same, slower}, {same, same}, {same, noisy}}
	var es []benchstats.Estimate
	var ps []float64
	for i, p := range pairs {
		e, err := benchstats.Compare(p[0], p[1], benchstats.Options{Seed: uint64(i)})
		if err != nil {
			fmt.Println(err)
			return
		}
		es, ps = append(es, e), append(ps, e.P)
	}
	sig := benchstats.BenjaminiHochberg(ps, 0.05)
	for i, e := range es {
		j := benchstats.Judge(e, benchstats.Rule{Threshold: 0.01, MinSamples: benchstats.MinSamples(0.99), Significant: sig[i]})
		fmt.Printf("%+.1f%%: %s (threshold %.1f%%, %s; MDE %.1f%%)\n", 100*e.Change, j.Verdict, 100*j.Threshold, j.Basis, 100*j.MDE)
	}
	fmt.Printf("expected false alarms: %.2f\n", benchstats.ExpectedFalseAlarms(0.05, 1))
	// Output:
	// +5.0%: definite-regression (threshold 1.0%, threshold; MDE 2.1%)
	// +0.0%: unchanged (threshold 3.0%, dynamic; MDE 2.0%)
	// +0.0%: unchanged (threshold 30.0%, dynamic; MDE 25.0%)
	// expected false alarms: 0.05
}
