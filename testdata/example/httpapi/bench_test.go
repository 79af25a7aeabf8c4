package httpapi

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"example.com/tinytsdb/storage"
)

// writeBody returns one /write batch: a sample of every metric for 20
// hosts at time ts.
func writeBody(ts int64) string {
	var sb strings.Builder
	for h := 0; h < 20; h++ {
		fmt.Fprintf(&sb, "cpu_usage,host=h%02d,region=r%d %.2f %d\n", h, h%4, float64(h*13%100)/100, ts)
		fmt.Fprintf(&sb, "mem_used,host=h%02d,region=r%d %d %d\n", h, h%4, 1<<30+h*4096, ts)
		fmt.Fprintf(&sb, "req_total,code=200,host=h%02d,region=r%d %d %d\n", h, h%4, ts/1000*3, ts)
	}
	return sb.String()
}

// BenchmarkWrite sends line protocol through the handler (no network), as
// the /write endpoint sees it.
func BenchmarkWrite(b *testing.B) {
	s := NewServer(storage.NewTable(storage.Options{}))
	bodies := make([]string, 64)
	for i := range bodies {
		bodies[i] = writeBody(1700000000000 + int64(i)*10000)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest("POST", "/write", strings.NewReader(bodies[i%len(bodies)]))
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkQueryHandler sends /query requests through the handler.
func BenchmarkQueryHandler(b *testing.B) {
	s := NewServer(storage.NewTable(storage.Options{}))
	s.Now = func() time.Time { return time.UnixMilli(1700000000000 + 3600*1000) }
	for i := int64(0); i < 360; i++ {
		req := httptest.NewRequest("POST", "/write", strings.NewReader(writeBody(1700000000000+i*10000)))
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
	}
	queries := []string{
		`avg(cpu_usage) by (region)`,
		`mem_used{host="h03"}`,
		`sum(rate(req_total[5m]))`,
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := url.Values{"query": {queries[i%len(queries)]}, "step": {"1m"}}
		req := httptest.NewRequest("GET", "/query?"+v.Encode(), nil)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}
