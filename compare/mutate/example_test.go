package mutate_test

import (
	"fmt"

	"github.com/mbopt/mbopt/compare/mutate"
)

// How long a mutant's busy loop runs: +10% of a function that costs
// 198,005 instructions per call, at 4 instructions per iteration and 5
// for the loop's call; and +50% of a 36-instruction function, for which
// one call of the loop is a quarter already.
func ExampleSizing_Iterations() {
	z := mutate.Sizing{SelfPerOp: 198005, CallsPerOp: 1, PerCall: 198005, PerIteration: 4, Fixed: 5}
	fmt.Println(z.Iterations(0.10), z.Iterations(0))
	small := mutate.Sizing{SelfPerOp: 107, CallsPerOp: 2.97, PerCall: 36, PerIteration: 4, Fixed: 5}
	n := small.Iterations(0.5)
	fmt.Printf("%d iterations add %.0f%%\n", n, 100*small.Slowdown(n))
	// Output:
	// 4949 0
	// 3 iterations add 47%
}
