package inline

import "testing"

var sink uint64

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Work(uint64(i))
	}
}
