package storage

import (
	"fmt"
	"testing"

	"example.com/tinytsdb/encoding"
)

// benchRows returns n rows of nSeries cpu series, one sample per series
// every 10s, starting at ts0.
func benchRows(n, nSeries int, ts0 int64) []encoding.Row {
	hosts := make([]string, nSeries)
	for i := range hosts {
		hosts[i] = fmt.Sprintf("host-%03d", i)
	}
	rows := make([]encoding.Row, n)
	for i := range rows {
		rows[i] = encoding.Row{
			Metric: "cpu_usage",
			Tags: []encoding.Tag{
				{Key: "host", Value: hosts[i%nSeries]},
				{Key: "region", Value: fmt.Sprintf("r%d", i%nSeries%4)},
			},
			Value:     float64(i%97) / 97,
			Timestamp: ts0 + int64(i/nSeries)*10000,
		}
	}
	return rows
}

func BenchmarkAddRows(b *testing.B) {
	rows := benchRows(1000, 100, 1700000000000) // 10 samples per series
	b.ReportAllocs()
	b.ResetTimer()
	tbl := NewTable(Options{})
	for i := 0; i < b.N; i++ {
		// Shift time forward so every iteration writes the next points.
		for j := range rows {
			rows[j].Timestamp += 10 * 10000
		}
		if err := tbl.AddRows(rows); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddRowsBatch is BenchmarkAddRows with small batches, as written
// by many concurrent clients. It exercises the same code path.
func BenchmarkAddRowsBatch(b *testing.B) {
	rows := benchRows(10000, 500, 1700000000000)
	b.ReportAllocs()
	b.ResetTimer()
	tbl := NewTable(Options{})
	for i := 0; i < b.N; i++ {
		for off := 0; off < len(rows); off += 50 {
			if err := tbl.AddRows(rows[off : off+50]); err != nil {
				b.Fatal(err)
			}
		}
		for j := range rows {
			rows[j].Timestamp += 20 * 10000
		}
	}
}

func loadedTable(b *testing.B, points, nSeries int) *Table {
	b.Helper()
	tbl := NewTable(Options{})
	if err := tbl.AddRows(benchRows(points, nSeries, 1700000000000)); err != nil {
		b.Fatal(err)
	}
	return tbl
}

func BenchmarkSearch(b *testing.B) {
	tbl := loadedTable(b, 2000, 1000)
	eq, _ := NewMatcher("region", MatchEqual, "r2")
	re, _ := NewMatcher("host", MatchRegexp, "host-0[0-4].*")
	ms := []Matcher{eq, re}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ids := tbl.Search("cpu_usage", ms); len(ids) == 0 {
			b.Fatal("no series")
		}
	}
}

func BenchmarkReadRange(b *testing.B) {
	tbl := loadedTable(b, 200000, 50) // 4000 points per series, ~11h
	var ts []int64
	var vs []float64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := SeriesID(i % 50)
		var err error
		ts, vs, err = tbl.ReadRange(id, 1700000000000+3600*1000, 1700000000000+4*3600*1000, ts[:0], vs[:0])
		if err != nil || len(ts) == 0 {
			b.Fatal(err, len(ts))
		}
	}
}

// cloneForBench returns a copy of t that shares its immutable blocks, so a
// benchmark can compact or drop data repeatedly without re-ingesting it.
func cloneForBench(t *Table) *Table {
	c := &Table{opts: t.opts, index: t.index, points: t.points}
	for _, p := range t.parts {
		cp := &partition{start: p.start, end: p.end, series: make(map[SeriesID]*series, len(p.series))}
		for id, s := range p.series {
			cp.series[id] = &series{headTs: s.headTs[:len(s.headTs):len(s.headTs)], headVs: s.headVs[:len(s.headVs):len(s.headVs)], blocks: append([]*Block(nil), s.blocks...)}
		}
		c.parts = append(c.parts, cp)
	}
	return c
}

func BenchmarkCompact(b *testing.B) {
	tmpl := NewTable(Options{BlockSize: 64, MaxBlocks: 1 << 30})
	if err := tmpl.AddRows(benchRows(20000, 20, 1700000000000)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := cloneForBench(tmpl).Compact(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRetention measures a rolling retention window: every iteration
// a new ten-minute partition appears and the oldest is dropped. The
// application workload never drops data, so this benchmark is irrelevant
// to it on purpose.
func BenchmarkRetention(b *testing.B) {
	const width = 600 * 1000
	tmpl := NewTable(Options{PartitionDuration: width})
	if err := tmpl.AddRows(benchRows(20000, 50, 1700000000000)); err != nil {
		b.Fatal(err)
	}
	tbl := cloneForBench(tmpl)
	first := tbl.parts[0]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		last := tbl.parts[len(tbl.parts)-1]
		p := &partition{start: last.end, end: last.end + width, series: make(map[SeriesID]*series, len(first.series))}
		for id, s := range first.series {
			p.series[id] = s
		}
		tbl.parts = append(tbl.parts, p)
		if n := tbl.DropBefore(tbl.parts[0].end); n != 1 {
			b.Fatalf("DropBefore dropped %d partitions, want 1", n)
		}
	}
}
