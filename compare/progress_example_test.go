package compare_test

import (
	"errors"
	"os"
	"time"

	"github.com/mbopt/mbopt/compare"
)

// A ProgressPrinter (NewProgressPrinter) is the Options.Progress of mbopt compare: outside a
// terminal it logs a line per build and per finished process, failures
// included.
func ExampleProgressPrinter() {
	p := compare.NewProgressPrinter(os.Stdout, "") // a line per step: os.Stdout is no terminal here
	p.Event(compare.Event{Kind: compare.EventBuild, Side: compare.Base, Package: "example.com/codec", Done: 1, Total: 2})
	p.Event(compare.Event{Kind: compare.EventBuild, Side: compare.Head, Package: "example.com/codec", Cached: true, Done: 2, Total: 2})
	p.Event(compare.Event{Kind: compare.EventRun, Side: compare.Base, Package: "example.com/codec", Name: "BenchmarkEncode", Trial: 1, Run: 1, Wall: 1500 * time.Millisecond, Done: 1, Total: 2})
	p.Event(compare.Event{Kind: compare.EventRun, Side: compare.Head, Package: "example.com/codec", Name: "BenchmarkEncode", Trial: 1, Run: 1, Wall: time.Second, Err: errors.New("exit status 2"), Done: 2, Total: 2})
	p.Event(compare.Event{Kind: compare.EventRun, Side: compare.Head, Name: compare.CommandName, Trial: 1, Run: 1, Wall: 2500 * time.Millisecond, Done: 3, Total: 4})
	p.Clear()
	// Output:
	// [1/2] built  base example.com/codec
	// [2/2] cached head example.com/codec
	// [1/2] trial 1 run 1 base example.com/codec.BenchmarkEncode 1.50s
	// [2/2] trial 1 run 1 head example.com/codec.BenchmarkEncode 1.00s: failed: exit status 2
	// [3/4] trial 1 run 1 head application command 2.50s
}
