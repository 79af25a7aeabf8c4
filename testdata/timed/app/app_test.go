package app

import "testing"

// size is the number of values the benchmarks prepare.
const size = 1 << 16

// BenchmarkHot times hot alone: setupOnly runs before the timer is reset,
// validateOnly after it stops.
func BenchmarkHot(b *testing.B) {
	data := setupOnly(size)
	b.ResetTimer()
	var sum uint32
	for i := 0; i < b.N; i++ {
		sum = hot(data)
	}
	b.StopTimer()
	if !validateOnly(data, sum) {
		b.Fatal("wrong checksum")
	}
}

// BenchmarkHotLoop is BenchmarkHot written with b.Loop, which runs the
// code around the loop once per benchmark, not once per b.N tried.
func BenchmarkHotLoop(b *testing.B) {
	data := setupOnly(size)
	var sum uint32
	for b.Loop() {
		sum = hot(data)
	}
	if !validateOnly(data, sum) {
		b.Fatal("wrong checksum")
	}
}
