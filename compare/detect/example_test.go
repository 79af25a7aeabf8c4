package detect_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
)

// A benchmark's series against a fixed baseline: stable around 0 with
// intervals 2% wide, until commit 5 makes it 8% slower.
func Example() {
	values := []float64{0.001, -0.002, 0, 0.002, -0.001, 0.08, 0.081, 0.079}
	var points []detect.Point
	for _, v := range values {
		points = append(points, detect.Point{Change: v, CI: benchstats.Interval{Low: v - 0.01, High: v + 0.01}})
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

// E-divisive over a whole series: 30 commits at the baseline's level,
// then 30 commits 4% slower, with 1% noise, too little a step for a jump
// against intervals 5% wide.
func ExampleChangePoints() {
	rng := rand.New(rand.NewPCG(1, 2))
	var values []float64
	for i := range 60 {
		v := 0.01 * rng.NormFloat64()
		if i >= 30 {
			v += 0.04
		}
		values = append(values, v)
	}
	cps, err := detect.ChangePoints(values, detect.DefaultEDivisiveOptions)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cps {
		fmt.Printf("change at commit %d: mean %+.1f%% → %+.1f%% (p = %.3f)\n", c.Index, 100*c.Before, 100*c.After, c.PValue)
	}
	// Output:
	// change at commit 30: mean +0.1% → +3.9% (p = 0.005)
}

// ParseBounds reads fixed-value bounds as a command line gives them; a
// front end names the field Fixed by its flag (mbopt history: --fixed).
func ExampleParseBounds() {
	b, err := detect.ParseBounds("-0.2, 0.2")
	fmt.Println(*b, err)
	_, err = detect.ParseBounds("0.2,-0.2")
	fmt.Println(err)
	// Output:
	// {-0.2 0.2} <nil>
	// Config.Fixed 0.2,-0.2: want LOWER,UPPER relative changes with LOWER < UPPER, such as -0.2,0.2
}
