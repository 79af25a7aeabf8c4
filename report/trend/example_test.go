package trend_test

import (
	"fmt"
	"os"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/report/trend"
)

// A history of four commits against one baseline: history finds the jump,
// trend renders the series and names it.
func ExampleWriteText() {
	s := history.Series{ID: "example.com/m.BenchmarkQuery", Unit: "sec/op", SettingsHash: "3f2a",
		Machine: history.Machine{GOOS: "linux", GOARCH: "amd64", GoVersion: "go1.26.8"}}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for i, c := range []float64{0.001, -0.002, 0.06, 0.061} {
		e := benchstats.Estimate{Change: c, CI: benchstats.Interval{Low: c - 0.005, High: c + 0.005}}
		s.Points = append(s.Points, history.Point{
			Head:  compare.Revision{Commit: fmt.Sprintf("%040d", i+2), Subject: fmt.Sprintf("commit %d", i+1), Time: t0.Add(time.Duration(i) * 24 * time.Hour)},
			Point: detect.Point{Change: c, CI: e.CI}, BaseValue: 1.2e-3, HeadValue: 1.2e-3 * (1 + c),
			// The verdict each comparison gave, against its 1% threshold.
			Verdict: benchstats.Classify(e, 0.01, false), Threshold: 0.01,
		})
	}
	set := &history.Set{Baseline: compare.Revision{Commit: "1111111111111111111111111111111111111111", Subject: "v1.0"}, Series: []history.Series{s}}
	opt := detect.DefaultOptions
	opt.InitialThreshold = 0.02
	detected, err := set.Detect(opt, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := trend.WriteText(os.Stdout, trend.NewDocument(set.Baseline, opt, detected)); err != nil {
		fmt.Println(err)
	}
	// Output:
	// mbopt: benchmark history against baseline 1111111111 (v1.0), 1 series
	//
	// example.com/m.BenchmarkQuery  sec/op
	//   linux/amd64, go1.26.8; initial threshold 2.0% (default)
	//   # commit                     date    base    head  change              ci  threshold  marks                judged then
	//   0 0000000000 commit 1  2026-03-01  1.20ms  1.20ms   +0.1%  [-0.4%, +0.6%]       2.0%                   unchanged ±1.0%
	//   1 0000000000 commit 2  2026-03-02  1.20ms  1.20ms   -0.2%  [-0.7%, +0.3%]       1.6%                   unchanged ±1.0%
	//   2 0000000000 commit 3  2026-03-03  1.20ms  1.27ms   +6.0%  [+5.5%, +6.5%]       1.2%     JT  definite regression ±1.0%
	//   3 0000000000 commit 4  2026-03-04  1.20ms  1.27ms   +6.1%  [+5.6%, +6.6%]       1.0%         definite regression ±1.0%
	//   judged then against ±1.0% (points 0–3); the detectors start from 2.0% (default)
	//   2 0000000000: definite jump up +6.2% (threshold 1.2%)
	//     locate it: mbopt bisect --bench BenchmarkQuery --good 0000000000000000000000000000000000000003 --bad 0000000000000000000000000000000000000004 --metric time example.com/m
	//   2 0000000000: definite trend up +6.1% (threshold 1.2%, against 2 commits)
	//
	// (marks: J jump, T trend, F fixed-value bound; capital definite, small potential)
}

// FigureName names each series' figure after its benchmark and unit; a
// second series of the same benchmark and unit (another machine) gets a
// number.
func ExampleFigureName() {
	used := map[string]bool{}
	s := trend.Series{ID: "example.com/m.BenchmarkQuery/sum(cpu)", Unit: "sec/op"}
	fmt.Println(trend.FigureName(s, used))
	fmt.Println(trend.FigureName(s, used))
	// Output:
	// example.com_m.BenchmarkQuery_sum_cpu_-sec_op.svg
	// example.com_m.BenchmarkQuery_sum_cpu_-sec_op-2.svg
}
