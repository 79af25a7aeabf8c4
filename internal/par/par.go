// Package par runs independent pieces of work on a bounded number of
// goroutines.
package par

import (
	"context"
	"sync"
)

// For calls f(i) for every i in [0, n) on at most jobs goroutines (at least
// one) and returns when all calls have returned. Once ctx is done no new
// call starts; calls already running finish. f must be safe to call
// concurrently for different i; results are usually written to index i of a
// slice, which keeps the output order independent of scheduling.
func For(ctx context.Context, n, jobs int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(jobs, n)) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
}
