package benchstats_test

import (
	"fmt"

	"github.com/mbopt/mbopt/benchstats"
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
