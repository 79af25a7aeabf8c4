package history_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/history"
)

// report is a comparison of one benchmark from base to head whose estimate
// is change with an interval of ±width/2.
func report(base, head string, change, width float64) *compare.Report {
	e := &benchstats.Estimate{Change: change, CI: benchstats.Interval{Low: change - width/2, High: change + width/2}}
	return &compare.Report{
		Base:     compare.Revision{Commit: base, Time: time.Unix(0, 0)},
		Head:     compare.Revision{Commit: head, Time: time.Unix(3600, 0)},
		Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5, Threshold: 0.01},
		Results: []compare.Result{{
			ID: "example.com/m.BenchmarkQuery", Package: "example.com/m", Name: "BenchmarkQuery", Unit: "sec/op",
			Status: compare.Compared, Estimate: e, Instability: width, Verdict: benchstats.Classify(*e, 0.01, false),
		}},
	}
}

// openTemp opens a new history in a new temporary directory named after
// name, and returns it with the function that closes it and removes the
// directory.
func openTemp(ctx context.Context, name string) (*history.Store, func()) {
	dir, err := os.MkdirTemp("", name)
	if err != nil {
		log.Fatal(err)
	}
	s, err := history.Open(ctx, filepath.Join(dir, "history.db"))
	if err != nil {
		os.RemoveAll(dir)
		log.Fatal(err)
	}
	return s, func() {
		s.Close()
		os.RemoveAll(dir)
	}
}

// Record is the compare → calibrate → reclassify → store sequence of mbopt
// compare: an A/A comparison (a commit against itself) measures how unstable
// a benchmark is, and later comparisons take their verdicts against the
// threshold calibrated from it instead of the 1% default.
func ExampleStore_Record() {
	ctx := context.Background()
	s, done := openTemp(ctx, "history-record")
	defer done()
	machine := history.Machine{GOOS: "linux", GOARCH: "amd64", GoVersion: "go1.26.8"}
	const a, b = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"

	aa, err := s.Record(ctx, report(a, a, 0.004, 0.08), history.RecordOptions{Machine: machine})
	if err != nil {
		log.Fatal(err)
	}
	t, _ := aa.AA.For("example.com/m.BenchmarkQuery", "sec/op")
	fmt.Printf("A/A comparison %d: threshold %.0f%% from %d run\n", aa.ID, 100*t, aa.AARuns)

	rep := report(a, b, 0.03, 0.01) // 3% slower
	fmt.Println("verdict against 1%:", rep.Results[0].Verdict)
	rec, err := s.Record(ctx, rep, history.RecordOptions{Machine: machine})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("comparison %d: %s against %.0f%%\n", rec.ID, rep.Results[0].Verdict, 100*rep.Results[0].Threshold)

	unstable, measured, err := s.Unstable(ctx, 0.05)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("unstable beyond 5%:", unstable, "of", measured)
	// Output:
	// A/A comparison 1: threshold 6% from 1 run
	// verdict against 1%: definite-regression
	// comparison 2: unchanged against 6%
	// unstable beyond 5%: [example.com/m.BenchmarkQuery] of 1
}

// InitialThresholds is the precedence of a series' initial threshold for
// change detection: a given one, else its benchmark's own calibrated from
// A/A comparisons, else the suite's, else the default.
func ExampleStore_InitialThresholds() {
	ctx := context.Background()
	s, done := openTemp(ctx, "history-initial")
	defer done()
	machine := history.Machine{GOOS: "linux", GOARCH: "amd64", GoVersion: "go1.26.8"}
	const a = "1111111111111111111111111111111111111111"
	aa := report(a, a, 0.004, 0.08)
	if _, err := s.Record(ctx, aa, history.RecordOptions{Machine: machine}); err != nil {
		log.Fatal(err)
	}
	series := func(id string) history.Series {
		return history.Series{ID: id, Unit: "sec/op", Machine: machine, SettingsHash: history.SettingsHash(aa.Settings)}
	}
	given := 0.2
	for _, rule := range []func(history.Series) (float64, string, error){
		s.InitialThresholds(ctx, nil, 0.06),
		s.InitialThresholds(ctx, &given, 0.06),
	} {
		for _, id := range []string{"example.com/m.BenchmarkQuery", "example.com/m.BenchmarkOther"} {
			t, source, err := rule(series(id))
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("%s %.0f%% %s\n", id, 100*t, source)
		}
	}
	// Output:
	// example.com/m.BenchmarkQuery 6% calibrated
	// example.com/m.BenchmarkOther 8% suite
	// example.com/m.BenchmarkQuery 20% given
	// example.com/m.BenchmarkOther 20% given
}
