package history_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
)

// Store three comparisons against one base and find the commit that made
// a benchmark slower.
func Example() {
	dir, err := os.MkdirTemp("", "history-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := history.Open(ctx, filepath.Join(dir, "history.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	machine := history.Machine{GOOS: "linux", GOARCH: "amd64", GoVersion: "go1.26.8"}
	base := compare.Revision{Commit: "1111111111111111111111111111111111111111", Time: time.Unix(0, 0)}
	for i, change := range []float64{0.002, -0.001, 0.09} {
		head := compare.Revision{Commit: fmt.Sprintf("%040d", i+2), Time: time.Unix(int64(i+1)*3600, 0), Subject: fmt.Sprintf("commit %d", i+1)}
		e := &benchstats.Estimate{Change: change, CI: benchstats.Interval{Low: change - 0.01, High: change + 0.01}}
		r := &compare.Report{Base: base, Head: head, Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5}, Results: []compare.Result{{
			ID: "example.com/m.BenchmarkQuery", Package: "example.com/m", Name: "BenchmarkQuery", Unit: "sec/op",
			Status: compare.Compared, Estimate: e, Verdict: benchstats.Classify(*e, 0.01, false),
		}}}
		if _, err := s.Add(ctx, r, machine); err != nil {
			fmt.Println(err)
			return
		}
	}
	set, err := s.Series(ctx, history.Query{})
	if err != nil {
		fmt.Println(err)
		return
	}
	opt := detect.DefaultOptions
	opt.InitialThreshold = 0.02
	detected, err := set.Detect(opt, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	sr := detected[0].Series
	fmt.Printf("%s: %d points against %.7s\n", sr.Name, len(sr.Points), set.Baseline.Commit)
	for _, d := range detected[0].Detections {
		fmt.Printf("%s: %s %s %+.1f%%, definite %v\n", sr.Points[d.Index].Head.Subject, d.Kind, d.Direction, 100*d.Change, d.Definite)
	}
	// Output:
	// BenchmarkQuery: 3 points against 1111111
	// commit 3: jump up +9.1%, definite true
	// commit 3: trend up +8.9%, definite true
}

// Run the detectors over a set of series, each with the initial threshold
// its A/A calibration gives it: a benchmark without A/A results falls back
// to the suite threshold.
func ExampleSet_Detect() {
	base := compare.Revision{Commit: "1111111111111111111111111111111111111111"}
	series := func(id string, changes ...float64) history.Series {
		s := history.Series{ID: id, Unit: "sec/op"}
		for i, c := range changes {
			s.Points = append(s.Points, history.Point{
				Head:  compare.Revision{Commit: fmt.Sprintf("%040d", i+2), Subject: fmt.Sprintf("commit %d", i+1)},
				Point: detect.Point{Change: c, CI: benchstats.Interval{Low: c - 0.005, High: c + 0.005}},
			})
		}
		return s
	}
	set := &history.Set{Baseline: base, Series: []history.Series{
		series("example.com/m.BenchmarkQuery", 0.001, -0.002, 0.06, 0.061),
		series("example.com/m.BenchmarkWrite", 0.01, 0.02, 0.01, 0.015),
	}}
	cal, err := history.Calibrate([]history.Instability{
		{ID: "example.com/m.BenchmarkQuery", Unit: "sec/op", Widths: []float64{0.02, 0.03, 0.025}},
	}, history.DefaultCalibrateOptions)
	if err != nil {
		fmt.Println(err)
		return
	}
	initial := func(s history.Series) (float64, string, error) {
		t, own := cal.For(s.ID, s.Unit)
		if own {
			return t, history.ThresholdCalibrated, nil
		}
		return t, history.ThresholdSuite, nil
	}
	detected, err := set.Detect(detect.DefaultOptions, initial)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range detected {
		fmt.Printf("%s: initial threshold %.1f%% (%s), %d detections\n", d.Series.ID, 100*d.InitialThreshold, d.ThresholdSource, len(d.Detections))
		for _, det := range d.Detections {
			fmt.Printf("  %s: %s %s %+.1f%%\n", d.Series.Points[det.Index].Head.Subject, det.Kind, det.Direction, 100*det.Change)
		}
	}
	// Output:
	// example.com/m.BenchmarkQuery: initial threshold 2.2% (calibrated), 2 detections
	//   commit 3: jump up +6.2%
	//   commit 3: trend up +6.1%
	// example.com/m.BenchmarkWrite: initial threshold 2.5% (suite), 0 detections
}
