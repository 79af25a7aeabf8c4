package encoding

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// gaugeSeries returns n points of a slowly moving gauge sampled every 10s
// with a little jitter, the shape most tinytsdb series have.
func gaugeSeries(n int) ([]int64, []float64) {
	rng := rand.New(rand.NewPCG(42, uint64(n)))
	ts := make([]int64, n)
	vs := make([]float64, n)
	t, v := int64(1700000000000), 40.0
	for i := range ts {
		t += 10000 + rng.Int64N(5)
		v += rng.NormFloat64()
		ts[i] = t
		vs[i] = float64(int(v*100)) / 100
	}
	return ts, vs
}

func BenchmarkEncode(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			ts, vs := gaugeSeries(n)
			var buf []byte
			b.ReportAllocs()
			b.SetBytes(int64(n * 16))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				buf = MarshalTimestamps(buf[:0], ts)
				buf = MarshalValues(buf, vs)
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	ts, vs := gaugeSeries(1000)
	tsBuf := MarshalTimestamps(nil, ts)
	vsBuf := MarshalValues(nil, vs)
	dstTs := make([]int64, 0, len(ts))
	dstVs := make([]float64, 0, len(vs))
	b.ReportAllocs()
	b.SetBytes(int64(len(ts) * 16))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		if dstTs, err = UnmarshalTimestamps(dstTs[:0], tsBuf, len(ts)); err != nil {
			b.Fatal(err)
		}
		if dstVs, err = UnmarshalValues(dstVs[:0], vsBuf, len(vs)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMarshalValues measures only the float compression; it overlaps
// with BenchmarkEncode on purpose (suites grow like that).
func BenchmarkMarshalValues(b *testing.B) {
	_, vs := gaugeSeries(1000)
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = MarshalValues(buf[:0], vs)
	}
}

func linesForBench(n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "cpu_usage,host=h%02d,region=eu-%d %.2f %d\n", i%50, i%4, float64(i%100)/3, 1700000000000+int64(i)*1000)
	}
	return sb.String()
}

func BenchmarkParse(b *testing.B) {
	data := linesForBench(500)
	rows := make([]Row, 0, 500)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		if rows, err = Parse(rows[:0], data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseLine(b *testing.B) {
	line := "http_requests_total,code=200,host=h07,region=us-east 182736 1700000000000"
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ParseLine(line); err != nil {
			b.Fatal(err)
		}
	}
}
