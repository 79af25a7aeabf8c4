package index

import "testing"

// size is the number of keys every benchmark's index holds.
const size = 1 << 21

var sink uint64

func BenchmarkAt(b *testing.B) {
	idx := Build(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += idx.At(i)
	}
}

func BenchmarkMin(b *testing.B) {
	idx := Build(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += idx.Min()
	}
}

func BenchmarkLen(b *testing.B) {
	idx := Build(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += uint64(idx.Len())
	}
}

func BenchmarkLookup(b *testing.B) {
	idx := Build(size)
	if !idx.Check() {
		b.Fatal("index not sorted")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, _ := idx.Lookup(idx.At(i))
		sink += uint64(v)
	}
}

func BenchmarkRank(b *testing.B) {
	idx := Build(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += uint64(idx.Rank(uint64(i) << 40))
	}
}

func BenchmarkAtMin(b *testing.B) {
	idx := Build(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += idx.At(i) ^ idx.Min()
	}
}
