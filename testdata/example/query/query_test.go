package query

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"example.com/tinytsdb/encoding"
	"example.com/tinytsdb/storage"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`cpu`, `cpu`},
		{`cpu{}`, `cpu`},
		{`cpu{host="a"}`, `cpu{host="a"}`},
		{` cpu { host = "a" , region =~ "eu-.*" } `, `cpu{host="a",region=~"eu-.*"}`},
		{`avg(cpu{host!="b"}) by (host, region)`, `avg(cpu{host!="b"}) by (host, region)`},
		{`sum(rate(req_total[300s]))`, `sum(rate(req_total[5m]))`},
		{`max(min(cpu))`, `max(min(cpu))`},
	}
	for _, tt := range tests {
		e, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q) error: %v", tt.in, err)
			continue
		}
		if got := e.String(); got != tt.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
	}{
		{``, 0},
		{`cpu{host="a"`, 12},
		{`cpu{host=a}`, 9},
		{`cpu{host~"a"}`, 8},
		{`median(cpu)`, 0},
		{`rate(cpu)`, 0},
		{`cpu[5x]`, 4},
		{`cpu extra`, 4},
		{`cpu{host="unterminated}`, 9},
		{`cpu{host=~"("}`, 10},
		{`sum(cpu) by host`, 12},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) error = %v, want *SyntaxError", tt.in, err)
			continue
		}
		if se.Offset != tt.offset {
			t.Errorf("Parse(%q) error offset = %d (%v), want %d", tt.in, se.Offset, err, tt.offset)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]int64{"250": 250, "250ms": 250, "30s": 30000, "5m": 300000, "2h": 7200000, "1d": 86400000} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %d, %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "s", "0s", "5y", "-1s"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) succeeded, want error", in)
		}
	}
}

// testTable holds cpu for hosts a, b (region eu) and c (region us) at
// t = 0, 10, ..., 90 s, with value host-index*100 + t/10, and a counter
// req_total{host="a"} that increases by 5 every 10 s and resets at 50 s.
func testTable(t *testing.T) *storage.Table {
	t.Helper()
	tbl := storage.NewTable(storage.Options{BlockSize: 4})
	var rows []encoding.Row
	for h, host := range []string{"a", "b", "c"} {
		region := "eu"
		if host == "c" {
			region = "us"
		}
		for i := int64(0); i < 10; i++ {
			rows = append(rows, encoding.Row{Metric: "cpu", Tags: []encoding.Tag{{Key: "host", Value: host}, {Key: "region", Value: region}}, Value: float64(h*100) + float64(i), Timestamp: i * 10000})
		}
	}
	for i := int64(0); i < 10; i++ {
		v := float64(i%5) * 5
		rows = append(rows, encoding.Row{Metric: "req_total", Tags: []encoding.Tag{{Key: "host", Value: "a"}}, Value: v, Timestamp: i * 10000})
	}
	if err := tbl.AddRows(rows); err != nil {
		t.Fatal(err)
	}
	return tbl
}

func TestExec(t *testing.T) {
	e := &Engine{Table: testTable(t)}
	p := Params{Start: 30000, End: 50000, Step: 10000}
	tests := []struct {
		q    string
		want map[string][]float64 // by joined label values
	}{
		{`cpu{host="b"}`, map[string][]float64{"cpu b eu": {103, 104, 105}}},
		{`sum(cpu)`, map[string][]float64{"": {309, 312, 315}}},
		{`avg(cpu) by (region)`, map[string][]float64{"eu": {53, 54, 55}, "us": {203, 204, 205}}},
		{`max(cpu{region="eu"})`, map[string][]float64{"": {103, 104, 105}}},
		{`min(cpu{host=~"b|c"})`, map[string][]float64{"": {103, 104, 105}}},
		{`count(cpu{host!="a"})`, map[string][]float64{"": {2, 2, 2}}},
		// (t-30s, t] holds 3 points 20s apart: +10 per 20s, except at 50s
		// where the counter resets 20→0 and only the first +5 counts.
		{`rate(req_total[30s])`, map[string][]float64{"a": {0.5, 0.5, 0.25}}},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			r, err := e.Exec(tt.q, p)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Series) != len(tt.want) {
				t.Fatalf("Exec(%q) returned %d series, want %d", tt.q, len(r.Series), len(tt.want))
			}
			for _, s := range r.Series {
				key := ""
				for _, l := range s.Labels {
					if key != "" {
						key += " "
					}
					key += l.Value
				}
				want, ok := tt.want[key]
				if !ok {
					t.Errorf("unexpected series %v", s.Labels)
					continue
				}
				for i := range want {
					if math.Abs(s.Values[i]-want[i]) > 1e-9 {
						t.Errorf("series %q = %v, want %v", key, s.Values, want)
						break
					}
				}
			}
		})
	}
}

func TestExecErrors(t *testing.T) {
	e := &Engine{Table: testTable(t), MaxSteps: 10, MaxSeries: 2}
	for _, tc := range []struct {
		q string
		p Params
	}{
		{`cpu`, Params{0, 100, 0}},
		{`cpu`, Params{100, 0, 1}},
		{`cpu`, Params{0, 1000, 1}},
		{`cpu`, Params{0, 10, 1}}, // 3 series > MaxSeries
		{`cpu{`, Params{0, 10, 1}},
	} {
		if _, err := e.Exec(tc.q, tc.p); err == nil {
			t.Errorf("Exec(%q, %+v) succeeded, want error", tc.q, tc.p)
		}
	}
}

func TestAppendJSON(t *testing.T) {
	r := &Result{Query: `cpu{host="a"}`, Params: Params{1, 2, 1}, Series: []Series{
		{Labels: []Label{{"host", "a"}}, Values: []float64{1.5, math.NaN()}},
	}}
	got := string(AppendJSON(nil, r))
	want := `{"query":"cpu{host=\"a\"}","start":1,"end":2,"step":1,"series":[{"labels":{"host":"a"},"values":[1.5,null]}]}` + "\n"
	if got != want {
		t.Errorf("AppendJSON = %s\nwant %s", got, want)
	}
	var v any
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Errorf("AppendJSON output is not valid JSON: %v", err)
	}
}
