package detect_test

import (
	"fmt"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/detect"
)

// A benchmark's series against a fixed baseline: stable around 0 with
// intervals 2% wide, until commit 5 makes it 8% slower.
func Example() {
	values := []float64{0.001, -0.002, 0, 0.002, -0.001, 0.08, 0.081, 0.079}
	var points []detect.Point
	for _, v := range values {
		points = append(points, detect.Point{Value: v, CI: benchstats.Interval{Low: v - 0.01, High: v + 0.01}})
	}
	opt := detect.DefaultOptions
	opt.InitialThreshold = 0.02 // calibrated from A/A runs
	res, err := detect.Detect(points, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range res.Detections {
		kind := "potential"
		if d.Definite {
			kind = "definite"
		}
		fmt.Printf("commit %d: %s %s %s %+.1f%% (threshold %.1f%%)\n", d.Index, kind, d.Kind, d.Direction, 100*d.Change, 100*d.Threshold)
	}
	// Output:
	// commit 5: definite jump up +8.1% (threshold 1.5%)
	// commit 5: definite trend up +8.0% (threshold 1.5%)
}
