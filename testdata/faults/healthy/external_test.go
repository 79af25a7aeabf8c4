package healthy_test

import (
	"testing"

	"example.com/faults/healthy"
)

var sink int

func BenchmarkExternal(b *testing.B) {
	for b.Loop() {
		sink = healthy.Sum(50)
	}
}
