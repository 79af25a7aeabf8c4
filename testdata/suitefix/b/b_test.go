package b

import "testing"

var sink int

func loop(b *testing.B) {
	for b.Loop() {
		sink = Work(7)
	}
}

func BenchmarkFoo(b *testing.B) { loop(b) }

func BenchmarkSub(b *testing.B) {
	b.Run("x", loop)
	b.Run("y", loop)
}
