package history_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/detect"
	"github.com/mbopt/mbopt/history"
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
	sr := set.Series[0]
	opt := detect.DefaultOptions
	opt.InitialThreshold = 0.02
	res, err := detect.Detect(sr.DetectPoints(), opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d points against %.7s\n", sr.Name, len(sr.Points), set.Baseline.Commit)
	for _, d := range res.Detections {
		fmt.Printf("%s: %s %s %+.1f%%, definite %v\n", sr.Points[d.Index].Head.Subject, d.Kind, d.Direction, 100*d.Change, d.Definite)
	}
	// Output:
	// BenchmarkQuery: 3 points against 1111111
	// commit 3: jump up +9.1%, definite true
	// commit 3: trend up +8.9%, definite true
}
