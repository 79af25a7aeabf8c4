package hangs

import (
	"testing"
	"time"
)

var sink int

// BenchmarkHang blocks forever (a sleep, so the runtime sees no deadlock).
func BenchmarkHang(b *testing.B) {
	for {
		time.Sleep(time.Hour)
	}
}

func BenchmarkQuick(b *testing.B) {
	for b.Loop() {
		sink++
	}
}
