package pipeline_test

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
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/pipeline"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// History is mbopt history: the series of a history database against its
// baseline, with jump and trend detection; here one benchmark that got
// 30% slower at the third of four commits, shown as JSON (its change
// points) and with a warning about a benchmark that is not there.
func ExampleHistory() {
	dir, err := os.MkdirTemp("", "pipeline-history")
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
	out, err := pipeline.History(ctx, pipeline.HistoryConfig{History: path, Benchmarks: []string{"BenchmarkQuery", "BenchmarkGone"},
		Detect: detect.DefaultOptions, Format: "text", Warn: func(err error) { fmt.Println("warning:", err) }})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	// Output:
	// warning: BenchmarkGone: no stored result against baseline 0000000000 matches this benchmark
	// mbopt: benchmark history against baseline 0000000000 (1970-01-01), 1 series
	//
	// example.com/m.BenchmarkQuery  sec/op
	//   linux/amd64, go1.26.8; initial threshold 6.0% (default)
	//   # commit            date  change                ci  threshold  marks                judged then
	//   0 1111111111  1970-01-01   +0.1%    [-0.4%, +0.6%]       6.0%                   unchanged ±1.0%
	//   1 2222222222  1970-01-01   -0.2%    [-0.7%, +0.3%]       4.2%                   unchanged ±1.0%
	//   2 3333333333  1970-01-01  +30.0%  [+29.5%, +30.5%]       2.5%     JT  definite regression ±1.0%
	//   3 4444444444  1970-01-01  +30.1%  [+29.6%, +30.6%]       1.0%         definite regression ±1.0%
	//   judged then against ±1.0% (points 0–3); the detectors start from 6.0% (default)
	//   2 3333333333: definite jump up +30.3% (threshold 2.5%)
	//     locate it: mbopt bisect --bench BenchmarkQuery --good 2222222222222222222222222222222222222222 --bad 3333333333333333333333333333333333333333 --metric time example.com/m
	//   2 3333333333: definite trend up +30.1% (threshold 2.5%, against 2 commits)
	//
	// (marks: J jump, T trend, F fixed-value bound; capital definite, small potential)
}

// ExcludeUnstable leaves the benchmarks the history measured as too
// unstable out of an analysis's suite; here a history with no A/A
// comparison yet, which is bad input that says how to make one.
func ExampleExcludeUnstable() {
	dir, err := os.MkdirTemp("", "pipeline-stability")
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
	err = pipeline.ExcludeUnstable(context.Background(), &cfg, path, 0.05)
	fmt.Println(strings.ReplaceAll(err.Error(), dir, "DIR"))
	// Output:
	// Config.MaxInstability: DIR/history.db holds no A/A result in sec/op; run mbopt compare --aa first
}
