package collect_test

import (
	"os"
	"time"

	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// A ProgressPrinter is the Config.Progress of mbopt profile: outside a
// terminal it logs a line per finished benchmark and per heartbeat, then
// the summary.
func ExampleProgressPrinter() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := start
	p := &collect.ProgressPrinter{W: os.Stdout, Now: func() time.Time { return clock }, Start: start}
	a := &manifest.Entry{ID: "m/a.BenchmarkA", Status: manifest.StatusOK, WallSeconds: 1.5}
	b := &manifest.Entry{ID: "m/a.BenchmarkB", Status: manifest.StatusFailed, WallSeconds: 0.2, Error: "panic: boom\ngoroutine 1"}
	p.Event(collect.Event{Kind: collect.EventStart, Package: "m/a", Name: "BenchmarkA", Total: 2})
	p.Event(collect.Event{Kind: collect.EventRunning, Package: "m/a", Name: "BenchmarkA", Phase: collect.PhaseMeasurement, Elapsed: 30 * time.Second})
	p.Event(collect.Event{Kind: collect.EventFinish, Entry: a, Done: 1, Total: 2})
	p.Event(collect.Event{Kind: collect.EventFinish, Entry: b, Done: 2, Total: 2})
	clock = clock.Add(2 * time.Second)
	p.Clear()
	p.Summary(&manifest.Manifest{Benchmarks: []manifest.Entry{*a}}, "profiles")
	// Output:
	//   still running after 30s (measurement): m/a.BenchmarkA
	// [1/2] ok              1.5s  m/a.BenchmarkA
	// [2/2] failed          0.2s  m/a.BenchmarkB: panic: boom
	// profiled 1 benchmark in 2s: 1 ok
}
