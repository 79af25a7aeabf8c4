package encoding

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

func TestTimestampsRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		ts   []int64
	}{
		{"empty", nil},
		{"one", []int64{1700000000000}},
		{"regular", []int64{1000, 2000, 3000, 4000, 5000}},
		{"jitter", []int64{1000, 2003, 2999, 4100, 4100, 9000}},
		{"unsorted", []int64{5, 3, 9, -4, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf := MarshalTimestamps(nil, tt.ts)
			got, err := UnmarshalTimestamps(nil, buf, len(tt.ts))
			if err != nil {
				t.Fatalf("UnmarshalTimestamps: %v", err)
			}
			if len(got) != len(tt.ts) || (len(got) > 0 && !reflect.DeepEqual(got, tt.ts)) {
				t.Errorf("round trip = %v, want %v", got, tt.ts)
			}
		})
	}
}

func TestTimestampsRegularAreOneByte(t *testing.T) {
	ts := make([]int64, 1000)
	for i := range ts {
		ts[i] = 1700000000000 + int64(i)*10000
	}
	buf := MarshalTimestamps(nil, ts)
	if len(buf) > 1000+16 {
		t.Errorf("len(MarshalTimestamps(1000 regular)) = %d, want <= %d", len(buf), 1016)
	}
}

func TestValuesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gauge := make([]float64, 500)
	for i := range gauge {
		gauge[i] = 50 + rng.NormFloat64()
	}
	tests := []struct {
		name string
		vs   []float64
	}{
		{"one", []float64{42}},
		{"constant", []float64{1, 1, 1, 1}},
		{"counter", []float64{0, 1, 2, 3, 5, 8, 13, 21}},
		{"special", []float64{0, math.Inf(1), -1.5, math.MaxFloat64, math.SmallestNonzeroFloat64, -0}},
		{"gauge", gauge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf := MarshalValues(nil, tt.vs)
			got, err := UnmarshalValues(nil, buf, len(tt.vs))
			if err != nil {
				t.Fatalf("UnmarshalValues: %v", err)
			}
			if !reflect.DeepEqual(got, tt.vs) {
				t.Errorf("round trip = %v, want %v", got, tt.vs)
			}
		})
	}
}

func TestUnmarshalShort(t *testing.T) {
	buf := MarshalValues(nil, []float64{1, 2, 3})
	if _, err := UnmarshalValues(nil, buf[:4], 3); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("UnmarshalValues(truncated) error = %v, want ErrShortBuffer", err)
	}
	tbuf := MarshalTimestamps(nil, []int64{1, 2, 3})
	if _, err := UnmarshalTimestamps(nil, tbuf, 5); !errors.Is(err, ErrShortBuffer) {
		t.Errorf("UnmarshalTimestamps(n too large) error = %v, want ErrShortBuffer", err)
	}
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		line    string
		want    Row
		wantErr bool
	}{
		{line: "cpu 1.5 1000", want: Row{Metric: "cpu", Value: 1.5, Timestamp: 1000}},
		{line: "cpu 2", want: Row{Metric: "cpu", Value: 2}},
		{line: "cpu,region=eu,host=a 0.25 7", want: Row{Metric: "cpu", Tags: []Tag{{"host", "a"}, {"region", "eu"}}, Value: 0.25, Timestamp: 7}},
		{line: "cpu", wantErr: true},
		{line: "9cpu 1", wantErr: true},
		{line: "cpu,host 1", wantErr: true},
		{line: "cpu,host=a,host=b 1", wantErr: true},
		{line: "cpu x", wantErr: true},
		{line: "cpu 1 soon", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseLine(tt.line)
		if tt.wantErr {
			if err == nil {
				t.Errorf("ParseLine(%q) = %+v, want error", tt.line, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseLine(%q) = %+v, %v, want %+v", tt.line, got, err, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	data := "# comment\ncpu,host=a 1 10\r\n\nmem,host=b 2 20\n"
	rows, err := Parse(nil, data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(rows) != 2 || rows[0].Metric != "cpu" || rows[1].Tags[0].Value != "b" {
		t.Errorf("Parse = %+v", rows)
	}
	_, err = Parse(nil, "cpu 1\nbad\n")
	if err == nil || err.Error() != `line 2: missing value in "bad"` {
		t.Errorf("Parse(bad) error = %v", err)
	}
}

func TestAppendRowRoundTrip(t *testing.T) {
	r := Row{Metric: "disk_io", Tags: []Tag{{"device", "sda"}, {"host", "h1"}}, Value: 3.25, Timestamp: 99}
	got, err := ParseLine(string(AppendRow(nil, &r)))
	if err != nil || !reflect.DeepEqual(got, r) {
		t.Errorf("ParseLine(AppendRow(%+v)) = %+v, %v", r, got, err)
	}
}
