package panics

import "testing"

var sink int

func BenchmarkPanic(b *testing.B) {
	panic("boom")
}

func BenchmarkFatal(b *testing.B) {
	b.Fatal("the benchmark gave up")
}

func BenchmarkSkip(b *testing.B) {
	b.Skip("not today")
}

// BenchmarkFast has the same name as healthy.BenchmarkFast.
func BenchmarkFast(b *testing.B) {
	for b.Loop() {
		sink = Double(21)
	}
}

func BenchmarkSubPanic(b *testing.B) {
	b.Run("ok", func(b *testing.B) {
		for b.Loop() {
			sink = Double(1)
		}
	})
	b.Run("bad", func(b *testing.B) {
		panic("sub-benchmark boom")
	})
	// after runs only when bad is skipped: the panic ends the process.
	b.Run("after", func(b *testing.B) {
		for b.Loop() {
			sink = Double(2)
		}
	})
}
