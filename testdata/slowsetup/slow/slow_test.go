package slow

import "testing"

var sink int

// BenchmarkSlow sets up before its timer and creates no sub-benchmarks.
func BenchmarkSlow(b *testing.B) {
	t := Setup()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += Sum(t)
	}
}

// BenchmarkSlowCases sets up in the parent, before b.Run, so that every
// process that runs one of its sub-benchmarks repeats the setup.
func BenchmarkSlowCases(b *testing.B) {
	t := Setup()
	for _, n := range []int{16, 64} {
		b.Run(map[int]string{16: "n=16", 64: "n=64"}[n], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink += Sum(t[:n])
			}
		})
	}
}
