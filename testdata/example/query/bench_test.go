package query

import (
	"fmt"
	"testing"

	"example.com/tinytsdb/encoding"
	"example.com/tinytsdb/storage"
)

const benchT0 = 1700000000000

// benchTable returns a table with one hour of 10-second samples of
// cpu_usage for 100 hosts in 4 regions and of a request counter for the
// same hosts and three status codes.
func benchTable(b *testing.B) *storage.Table {
	b.Helper()
	tbl := storage.NewTable(storage.Options{})
	rows := make([]encoding.Row, 0, 400*360)
	for i := int64(0); i < 360; i++ {
		for h := 0; h < 100; h++ {
			host := fmt.Sprintf("h%03d", h)
			region := fmt.Sprintf("r%d", h%4)
			ts := benchT0 + i*10000
			rows = append(rows, encoding.Row{Metric: "cpu_usage", Tags: []encoding.Tag{{Key: "host", Value: host}, {Key: "region", Value: region}}, Value: float64((h*7+int(i))%100) / 100, Timestamp: ts})
			for c, code := range []string{"200", "404", "500"} {
				rows = append(rows, encoding.Row{Metric: "req_total", Tags: []encoding.Tag{{Key: "code", Value: code}, {Key: "host", Value: host}, {Key: "region", Value: region}}, Value: float64(i * int64(10-3*c)), Timestamp: ts})
			}
		}
	}
	if err := tbl.AddRows(rows); err != nil {
		b.Fatal(err)
	}
	return tbl
}

var benchParams = Params{Start: benchT0 + 5*60000, End: benchT0 + 3600000, Step: 60000}

func BenchmarkParse(b *testing.B) {
	q := `sum(rate(req_total{code!="500",region=~"r[12]"}[5m])) by (region, host)`
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSelect measures a plain selector: index search, block reads
// and step sampling, without aggregation.
func BenchmarkSelect(b *testing.B) {
	e := &Engine{Table: benchTable(b)}
	expr, err := Parse(`cpu_usage{region="r1"}`)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Eval(expr, benchParams); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuery runs whole queries through Exec. The sub-benchmark names
// contain regexp metacharacters on purpose.
func BenchmarkQuery(b *testing.B) {
	e := &Engine{Table: benchTable(b)}
	cases := []struct{ name, q string }{
		{"sum(cpu)", `sum(cpu_usage)`},
		{"avg_by_host", `avg(cpu_usage{region=~"r[02]"}) by (host)`},
		{"rate(req[5m])", `sum(rate(req_total{code="200"}[5m])) by (region)`},
		{"case=a+b", `max(cpu_usage{host=~"h0.+"})`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := e.Exec(c.q, benchParams); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncode measures the JSON encoding of a result. Another
// BenchmarkEncode lives in package encoding.
func BenchmarkEncode(b *testing.B) {
	e := &Engine{Table: benchTable(b)}
	r, err := e.Exec(`cpu_usage`, benchParams)
	if err != nil {
		b.Fatal(err)
	}
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = AppendJSON(buf[:0], r)
	}
	b.SetBytes(int64(len(buf)))
}
