package measure_test

import (
	"fmt"

	"github.com/mbopt/mbopt/relevance/measure"
)

// Counts chooses the two iteration counts from a normal run's time and
// allocation per operation: 1 ms/op aims at 20 ms at the higher count.
func ExampleOptions_Counts() {
	o := measure.Options{NsPerOp: 1e6, BytesPerOp: 4096}
	n1, n2, err := o.Counts(measure.InstructionsTarget)
	fmt.Println(n1, n2, err)
	m, err := measure.ParseMetric("instructions")
	fmt.Println(m, m.Unit(), err)
	// Output:
	// 4 20 <nil>
	// instructions instructions/op <nil>
}
