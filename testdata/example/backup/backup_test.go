package backup

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"example.com/tinytsdb/encoding"
	"example.com/tinytsdb/storage"
)

func sampleTable(tb testing.TB, nSeries, nPoints int) *storage.Table {
	tb.Helper()
	t := storage.NewTable(storage.Options{BlockSize: 100})
	rows := make([]encoding.Row, 0, nSeries*nPoints)
	for i := 0; i < nPoints; i++ {
		for s := 0; s < nSeries; s++ {
			rows = append(rows, encoding.Row{
				Metric:    "cpu_usage",
				Tags:      []encoding.Tag{{Key: "host", Value: fmt.Sprintf("h%03d", s)}},
				Value:     float64((s*31+i)%200) / 4,
				Timestamp: 1700000000000 + int64(i)*15000,
			})
		}
	}
	if err := t.AddRows(rows); err != nil {
		tb.Fatal(err)
	}
	return t
}

func dump(tb testing.TB, t *storage.Table) []string {
	var out []string
	err := t.Export(func(m *storage.SeriesMeta, ts []int64, vs []float64) error {
		out = append(out, fmt.Sprint(m.String(), ts, vs))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	src := sampleTable(t, 5, 500)
	var buf bytes.Buffer
	sum, err := Write(&buf, src)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Points != 2500 || sum.Bytes != int64(buf.Len()) {
		t.Errorf("Write summary = %+v, buffer %d bytes", sum, buf.Len())
	}
	dst := storage.NewTable(storage.Options{})
	rsum, err := Restore(bytes.NewReader(buf.Bytes()), dst)
	if err != nil {
		t.Fatal(err)
	}
	if rsum.Records != sum.Records || rsum.Points != sum.Points {
		t.Errorf("Restore summary = %+v, want %+v", rsum, sum)
	}
	if got, want := dump(t, dst), dump(t, src); !reflect.DeepEqual(got, want) {
		t.Errorf("restored table differs:\n%.200q\nwant\n%.200q", got, want)
	}
}

func TestRestoreCorrupt(t *testing.T) {
	var buf bytes.Buffer
	if _, err := Write(&buf, sampleTable(t, 2, 50)); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	tests := map[string][]byte{
		"empty":     nil,
		"bad magic": append([]byte("XXXXXXXX"), good[8:]...),
		"truncated": good[:len(good)/2],
		"not gzip":  append([]byte(magic), "plain text"...),
	}
	for name, data := range tests {
		if _, err := Restore(bytes.NewReader(data), storage.NewTable(storage.Options{})); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Restore(%s) error = %v, want ErrCorrupt", name, err)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB", 5 << 20: "5.0 MiB"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
