package collect

import (
	"context"
	"sync/atomic"
	"time"
)

// launches counts the test binary processes runProcess started.
var launches atomic.Int64

func init() {
	run := runProcess
	runProcess = func(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) procResult {
		launches.Add(1)
		return run(ctx, dir, env, timeout, name, args...)
	}
}

// Launches returns the number of test binary processes started so far,
// for tests that check what a rerun reuses.
func Launches() int64 { return launches.Load() }
