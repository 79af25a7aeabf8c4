package culprit_test

import (
	"fmt"

	"github.com/mbopt/mbopt/culprit"
)

func ExampleCompare() {
	base := &culprit.Profile{Unit: "instructions", Type: "instructions", Samples: []culprit.Sample{
		{Function: "p.Work", Value: 3000}, {Function: "p.helper", Value: 4000},
	}}
	head := &culprit.Profile{Unit: "instructions", Type: "instructions", Samples: []culprit.Sample{
		{Function: "p.Work", Value: 3000}, {Function: "p.helper", Value: 8000},
	}}
	app := map[string]float64{"p.helper": 0.4}
	d := culprit.Compare(base, head, app)
	for _, c := range d.Culprits {
		fmt.Printf("%s %.0f → %.0f (%+.0f, %.0f%% of the change) in app: %v\n", c.Function, c.Base, c.Head, c.Delta, 100*c.Share, c.InApp)
	}
	a := culprit.Impact(d, app, 4000.0/7000, 0.5, 0.64)
	fmt.Printf("application: %+.1f%% [%+.1f%%, %+.1f%%], relevant share %.0f%%\n", 100*a.Estimate, 100*a.Low, 100*a.High, 100*a.RelevantShare)
	// Output:
	// p.helper 4000 → 8000 (+4000, 100% of the change) in app: true
	// application: +40.0% [+35.0%, +44.8%], relevant share 100%
}
