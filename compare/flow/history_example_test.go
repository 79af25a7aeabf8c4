package flow_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// History is mbopt history's query: the series of a history database
// against its baseline, with jump and trend detection, as values; here one
// benchmark that got 30% slower at the third of four commits, and a
// warning about a benchmark that is not there. Package report/trend
// renders the result as mbopt history prints it.
func ExampleHistory() {
	dir, err := os.MkdirTemp("", "flow-history")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	path := filepath.Join(dir, "history.db")
	st, err := history.Open(ctx, path)
	if err != nil {
		log.Fatal(err)
	}
	base := compare.Revision{Commit: fmt.Sprintf("%040d", 0), Time: time.Unix(0, 0)}
	for i, change := range []float64{0.001, -0.002, 0.30, 0.301} {
		e := &benchstats.Estimate{Change: change, CI: benchstats.Interval{Low: change - 0.005, High: change + 0.005}}
		rep := &compare.Report{Base: base, Head: compare.Revision{Commit: strings.Repeat(fmt.Sprint(i+1), 40), Time: time.Unix(int64(3600*(i+1)), 0)},
			Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5, Threshold: 0.01},
			Results: []compare.Result{{ID: "example.com/m.BenchmarkQuery", Package: "example.com/m", Name: "BenchmarkQuery", Unit: "sec/op",
				Status: compare.Compared, Estimate: e, Verdict: benchstats.Classify(*e, 0.01, false)}}}
		if _, err := st.Record(ctx, rep, history.RecordOptions{Machine: history.Machine{GOOS: "linux", GOARCH: "amd64", GoVersion: "go1.26.8"}}); err != nil {
			log.Fatal(err)
		}
	}
	st.Close()
	trends, err := flow.History(ctx, flow.HistoryConfig{History: path, Benchmarks: []string{"BenchmarkQuery", "BenchmarkGone"},
		Detect: detect.DefaultOptions, Warn: func(err error) { fmt.Println("warning:", err) }})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("against baseline %.10s:\n", trends.Set.Baseline.Commit)
	for _, d := range trends.Detected {
		fmt.Printf("%s %s: %d points, initial threshold %.1f%% (%s)\n", d.Series.ID, d.Series.Unit, len(d.Series.Points), 100*d.InitialThreshold, d.ThresholdSource)
		for _, det := range d.Detections {
			fmt.Printf("  %.10s: %s %s %+.1f%% (definite: %t)\n", d.Series.Points[det.Index].Head.Commit, det.Kind, det.Direction, 100*det.Change, det.Definite)
		}
	}
	// Output:
	// warning: BenchmarkGone: no stored result against baseline 0000000000 matches this benchmark
	// against baseline 0000000000:
	// example.com/m.BenchmarkQuery sec/op: 4 points, initial threshold 6.0% (default)
	//   3333333333: jump up +30.3% (definite: true)
	//   3333333333: trend up +30.1% (definite: true)
}

// ExcludeUnstable leaves the benchmarks the history measured as too
// unstable out of an analysis's suite; here a history with no A/A
// comparison yet, which is bad input that says how to make one.
func ExampleExcludeUnstable() {
	dir, err := os.MkdirTemp("", "flow-stability")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "history.db")
	st, err := history.Open(context.Background(), path)
	if err != nil {
		log.Fatal(err)
	}
	st.Close()
	var cfg analysis.Config
	err = flow.ExcludeUnstable(context.Background(), &cfg, path, 0.05)
	fmt.Println(strings.ReplaceAll(err.Error(), dir, "DIR"))
	// Output:
	// Config.Select.ExcludeBenchmarks: DIR/history.db holds no A/A result in sec/op; run mbopt compare --aa first
}
