package collect

import (
	"context"
	"time"

	"github.com/mbopt/mbopt/internal/testbin"
)

// A procResult is how one test binary process ended; see package
// internal/testbin, which builds, lists and runs them for collect and
// compare alike.
type procResult = testbin.Result

// runProcess runs a test binary; see [testbin.Run]. Every test binary
// process of a collection starts here (the tests count them).
var runProcess = testbin.Run

// listBenchmarks lists the top-level benchmarks of test binary bin as
// [testbin.List] does, with the process started by runProcess.
func listBenchmarks(ctx context.Context, dir string, env []string, timeout time.Duration, bin string) ([]string, procResult) {
	r := runProcess(ctx, dir, env, timeout, bin, testbin.ListArgs()...)
	if r.Err != nil || r.TimedOut {
		return nil, r
	}
	return testbin.BenchmarkNames(r.Output), r
}
