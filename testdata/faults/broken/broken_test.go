package broken

import "testing"

func BenchmarkBroken(b *testing.B) {
	for b.Loop() {
		_ = Value
	}
}
