package hidden

import (
	"testing"

	"example.com/faults/benchcases"
)

var sink int

func BenchmarkHidden(b *testing.B) {
	benchcases.Run(b, func(b *testing.B) {
		for b.Loop() {
			sink = Double(sink)
		}
	})
}
