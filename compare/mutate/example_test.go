package mutate_test

import (
	"fmt"

	"github.com/mbopt/mbopt/compare/mutate"
)

// How long a mutant's busy loop runs: +10% of a function that costs
// 198,005 instructions per call, at 4 instructions per iteration, when the
// mutant's other code runs 22 instructions more per call.
func ExampleSizing_Iterations() {
	z := mutate.Sizing{SelfPerOp: 198005, CallsPerOp: 1, PerCall: 198005, PerIteration: 4.005, Drift: 22}
	fmt.Println(z.Iterations(0.10))
	fmt.Println(z.Iterations(0))
	// Output:
	// 4938
	// 0
}
