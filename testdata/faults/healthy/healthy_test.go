package healthy

import (
	"fmt"
	"testing"
)

var sink int

func BenchmarkFast(b *testing.B) {
	for b.Loop() {
		sink = Sum(100)
	}
}

func BenchmarkSub(b *testing.B) {
	for _, n := range []int{1, 10} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				sink = Sum(n)
			}
		})
	}
	b.Run("with space", func(b *testing.B) {
		for b.Loop() {
			sink = Sum(3)
		}
	})
}
