package culprit_test

import (
	"fmt"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/culprit"
)

// Three measurements per version of a benchmark whose helper does twice
// the work: the helper is the one culprit (the runtime's counts move
// within their noise), and the application, which spends 40% of its time
// in the helper, is estimated 40% slower.
func ExampleExplain() {
	measure := func(helper float64, noise ...float64) culprit.Measurements {
		var m culprit.Measurements
		for _, n := range noise {
			m = append(m, [][]map[string]float64{{{"p.Work": 3000, "p.helper": helper, "runtime.unlock2": n}}})
		}
		return m
	}
	base, head := measure(4000, -40, 25, 60), measure(8000, 30, -55, 10)
	app := &callgraph.Application{Shares: map[string]float64{"p.helper": 0.4, "runtime.unlock2": 0.01}}
	d, a := culprit.Explain(base, head, culprit.Options{App: app, MinDelta: 0.5, Resamples: 1000})
	for _, c := range d.Culprits {
		fmt.Printf("%s %.0f → %.0f (%+.0f%%, %.0f%% of the movement) in app: %v\n", c.Function, c.Base, c.Head, 100**c.Relative, 100*c.Share, c.InApp)
	}
	fmt.Printf("%d functions moved within their noise\n", d.Noise)
	fmt.Printf("application: %+.1f%% [%+.1f%%, %+.1f%%] from the %s\n", 100*a.Estimate, 100*a.Low, 100*a.High, a.Basis)
	// Output:
	// p.helper 4000 → 8000 (+100%, 100% of the movement) in app: true
	// 1 functions moved within their noise
	// application: +40.0% [+40.0%, +40.0%] from the functions
}
