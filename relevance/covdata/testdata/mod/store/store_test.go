package store

import "testing"

// work runs every function the test expects to run, n times.
func work(n int) int {
	s := 0
	for range n {
		d := New()
		d.Put("a", 1)
		s += d.Get("a")
		s += Pair{1, 2}.Sum()
		var t Tree[int]
		for i := range 50 {
			t.Insert(50-i, func(a, b int) bool { return a < b })
		}
		s += len(Map(make([]int, 2000), func(x int) string { return string(rune('a' + x)) }))
		s += Outer([]int{1, 2, 3})
		s += Ranged(20)
		s += UseSmall()
	}
	return s
}

var sinkInt int

func BenchmarkAll(b *testing.B) {
	for b.Loop() {
		sinkInt += work(1)
	}
}
