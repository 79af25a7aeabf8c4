// Package par runs independent pieces of work on a bounded number of
// goroutines.
package par

import (
	"context"
	"sync"
	"sync/atomic"
)

// For calls f(i) for every i in [0, n) on at most jobs goroutines (at least
// one) and returns when all calls have returned. Once ctx is done no new
// call starts; calls already running finish. f must be safe to call
// concurrently for different i; results are usually written to index i of a
// slice, which keeps the output order independent of scheduling.
//
// Each goroutine takes the next index from a shared counter, so no
// goroutine hands work to another: on a busy machine, a handoff would
// leave the workers idle whenever the thread handing out work waits for a
// CPU.
func For(ctx context.Context, n, jobs int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(jobs, n)) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				f(int(i))
			}
		})
	}
	wg.Wait()
}
