package engine_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/mbopt/mbopt/compare/engine"
)

// Data reads raw result files: the "# mbopt-compare" line before each
// process's results says its version, trial and run.
func ExampleData() {
	raw := `# mbopt compare: base main (commit abc)

# mbopt-compare side=base commit=abc trial=1 run=1
pkg: example.com/codec
BenchmarkEncode-8	1000	1200 ns/op
BenchmarkEncode-8	1000	1180 ns/op

# mbopt-compare side=base commit=abc trial=1 run=2
pkg: example.com/codec
BenchmarkEncode-8	1000	1210 ns/op
`
	d := engine.NewData()
	if err := d.Read("base.txt", strings.NewReader(raw)); err != nil {
		log.Fatal(err)
	}
	for _, k := range d.Order {
		s := d.Samples[engine.Base][k]
		fmt.Printf("%s %s: %d trial, %d measurements, commit %s\n", k.ID, k.Unit, s.H.Trials(), s.H.Len(), d.Commits[engine.Base])
	}
	// Output:
	// example.com/codec.BenchmarkEncode sec/op: 1 trial, 3 measurements, commit abc
}
