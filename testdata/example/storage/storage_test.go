package storage

import (
	"fmt"
	"reflect"
	"testing"

	"example.com/tinytsdb/encoding"
)

func row(metric string, ts int64, v float64, kv ...string) encoding.Row {
	r := encoding.Row{Metric: metric, Timestamp: ts, Value: v}
	for i := 0; i+1 < len(kv); i += 2 {
		r.Tags = append(r.Tags, encoding.Tag{Key: kv[i], Value: kv[i+1]})
	}
	return r
}

func mustMatcher(t *testing.T, k string, op MatchOp, v string) Matcher {
	t.Helper()
	m, err := NewMatcher(k, op, v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestAddRowsAndReadRange(t *testing.T) {
	tbl := NewTable(Options{BlockSize: 4, MaxBlocks: 2, PartitionDuration: 100})
	var rows []encoding.Row
	// Out of order on purpose, spanning three partitions.
	for _, ts := range []int64{5, 3, 1, 2, 4, 150, 120, 101, 130, 110, 250, 6, 7} {
		rows = append(rows, row("cpu", ts, float64(ts)*10, "host", "a"))
	}
	if err := tbl.AddRows(rows); err != nil {
		t.Fatal(err)
	}
	ids := tbl.Search("cpu", nil)
	if len(ids) != 1 {
		t.Fatalf("Search(cpu) = %v, want one id", ids)
	}
	ts, vs, err := tbl.ReadRange(ids[0], 3, 130, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantTs := []int64{3, 4, 5, 6, 7, 101, 110, 120, 130}
	if !reflect.DeepEqual(ts, wantTs) {
		t.Errorf("ReadRange timestamps = %v, want %v", ts, wantTs)
	}
	for i := range ts {
		if vs[i] != float64(ts[i])*10 {
			t.Errorf("value at %d = %v, want %v", ts[i], vs[i], float64(ts[i])*10)
		}
	}
	if st := tbl.Stats(); st.Partitions != 3 || st.Points != 13 || st.Series != 1 {
		t.Errorf("Stats() = %+v", st)
	}
}

func TestSearch(t *testing.T) {
	tbl := NewTable(Options{})
	var rows []encoding.Row
	for h := 0; h < 4; h++ {
		for _, region := range []string{"eu", "us"} {
			rows = append(rows, row("cpu", 1, 1, "host", fmt.Sprintf("h%d", h), "region", region))
		}
	}
	rows = append(rows, row("mem", 1, 1, "host", "h0"))
	if err := tbl.AddRows(rows); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		ms   []Matcher
		want int
	}{
		{"all", nil, 8},
		{"eq", []Matcher{mustMatcher(t, "host", MatchEqual, "h1")}, 2},
		{"two eq", []Matcher{mustMatcher(t, "host", MatchEqual, "h1"), mustMatcher(t, "region", MatchEqual, "us")}, 1},
		{"neq", []Matcher{mustMatcher(t, "region", MatchNotEqual, "us")}, 4},
		{"regexp", []Matcher{mustMatcher(t, "host", MatchRegexp, "h[12]")}, 4},
		{"regexp anchored", []Matcher{mustMatcher(t, "host", MatchRegexp, "1")}, 0},
		{"missing", []Matcher{mustMatcher(t, "host", MatchEqual, "nope")}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tbl.Search("cpu", tt.ms); len(got) != tt.want {
				t.Errorf("Search(cpu, %v) = %v, want %d ids", tt.ms, got, tt.want)
			}
		})
	}
	ids := tbl.Search("cpu", []Matcher{mustMatcher(t, "host", MatchEqual, "h3"), mustMatcher(t, "region", MatchEqual, "eu")})
	if m := tbl.Meta(ids[0]); m.String() != "cpu{host=h3,region=eu}" {
		t.Errorf("Meta = %s", m.String())
	}
}

func TestCompactDedup(t *testing.T) {
	tbl := NewTable(Options{BlockSize: 3, MaxBlocks: 100})
	var rows []encoding.Row
	for i := 0; i < 10; i++ {
		rows = append(rows, row("x", int64(i%5), float64(i)))
	}
	if err := tbl.AddRows(rows); err != nil {
		t.Fatal(err)
	}
	n, err := tbl.Compact()
	if err != nil || n != 1 {
		t.Fatalf("Compact() = %d, %v, want 1, nil", n, err)
	}
	ts, vs, _ := tbl.ReadRange(0, 0, 100, nil, nil)
	if !reflect.DeepEqual(ts, []int64{0, 1, 2, 3, 4}) || !reflect.DeepEqual(vs, []float64{5, 6, 7, 8, 9}) {
		t.Errorf("after Compact: ts=%v vs=%v", ts, vs)
	}
	if st := tbl.Stats(); st.Blocks != 1 {
		t.Errorf("Blocks after Compact = %d, want 1", st.Blocks)
	}
}

func TestDropBefore(t *testing.T) {
	tbl := NewTable(Options{PartitionDuration: 10})
	var rows []encoding.Row
	for ts := int64(0); ts < 50; ts++ {
		rows = append(rows, row("x", ts, 1))
	}
	_ = tbl.AddRows(rows)
	if n := tbl.DropBefore(25); n != 2 {
		t.Errorf("DropBefore(25) = %d, want 2", n)
	}
	ts, _, _ := tbl.ReadRange(0, 0, 100, nil, nil)
	if len(ts) != 30 || ts[0] != 20 {
		t.Errorf("after DropBefore: %d points from %v", len(ts), ts[:1])
	}
	if st := tbl.Stats(); st.Points != 30 {
		t.Errorf("Stats().Points = %d, want 30", st.Points)
	}
}

func TestExport(t *testing.T) {
	tbl := NewTable(Options{BlockSize: 2})
	_ = tbl.AddRows([]encoding.Row{row("a", 3, 3), row("a", 1, 1), row("a", 2, 2), row("b", 1, 9)})
	var got []string
	err := tbl.Export(func(m *SeriesMeta, ts []int64, vs []float64) error {
		got = append(got, fmt.Sprint(m.String(), ts, vs))
		return nil
	})
	want := []string{"a{}[1 2 3] [1 2 3]", "b{}[1] [9]"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Export = %q, %v, want %q", got, err, want)
	}
}
