package backup

import (
	"bytes"
	"io"
	"testing"

	"example.com/tinytsdb/storage"
)

// The application never takes or restores snapshots: both benchmarks are
// irrelevant to it on purpose.

func BenchmarkSnapshot(b *testing.B) {
	t := sampleTable(b, 50, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Write(io.Discard, t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRestore(b *testing.B) {
	var buf bytes.Buffer
	if _, err := Write(&buf, sampleTable(b, 50, 2000)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Restore(bytes.NewReader(buf.Bytes()), storage.NewTable(storage.Options{})); err != nil {
			b.Fatal(err)
		}
	}
}
