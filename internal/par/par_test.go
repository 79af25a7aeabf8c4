package par

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestForVisitsEachIndexOnce(t *testing.T) {
	for _, jobs := range []int{0, 1, 3, 100} {
		seen := make([]int32, 50)
		For(context.Background(), len(seen), jobs, func(i int) { atomic.AddInt32(&seen[i], 1) })
		for i, n := range seen {
			if n != 1 {
				t.Fatalf("jobs=%d: index %d ran %d times, want 1", jobs, i, n)
			}
		}
	}
}

func TestForStopsStartingWorkWhenCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	For(ctx, 1000, 1, func(i int) {
		ran.Add(1)
		if i == 9 {
			cancel()
		}
	})
	if n := ran.Load(); n < 10 || n > 11 {
		t.Fatalf("ran %d calls after canceling at the 10th, want 10 or 11", n)
	}
}
