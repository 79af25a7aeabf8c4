package app

import "testing"

// size is the number of values the benchmarks prepare.
const size = 1 << 16

// BenchmarkHot times Hot alone: SetupOnly runs before the timer is reset,
// ValidateOnly after it stops.
func BenchmarkHot(b *testing.B) {
	data := SetupOnly(size)
	b.ResetTimer()
	var sum uint32
	for i := 0; i < b.N; i++ {
		sum = Hot(data)
	}
	b.StopTimer()
	if !ValidateOnly(data, sum) {
		b.Fatal("wrong checksum")
	}
}

// BenchmarkHotLoop is BenchmarkHot written with b.Loop, which runs the
// code around the loop once per benchmark, not once per b.N tried.
func BenchmarkHotLoop(b *testing.B) {
	data := SetupOnly(size)
	var sum uint32
	for b.Loop() {
		sum = Hot(data)
	}
	if !ValidateOnly(data, sum) {
		b.Fatal("wrong checksum")
	}
}
