package httpapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"example.com/tinytsdb/storage"
)

func newTestServer(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	s := NewServer(storage.NewTable(storage.Options{}))
	s.Now = func() time.Time { return time.UnixMilli(100000) }
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

func do(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestWriteQueryHealth(t *testing.T) {
	_, ts := newTestServer(t)
	body := "cpu,host=a 1 10000\ncpu,host=a 2 20000\ncpu,host=b 5\n"
	req, _ := http.NewRequest("POST", ts.URL+"/write", strings.NewReader(body))
	if code, msg := do(t, req); code != http.StatusNoContent {
		t.Fatalf("POST /write = %d %s, want 204", code, msg)
	}

	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, "cpu,host=a 3 30000\n")
	zw.Close()
	req, _ = http.NewRequest("POST", ts.URL+"/write", &gz)
	req.Header.Set("Content-Encoding", "gzip")
	if code, msg := do(t, req); code != http.StatusNoContent {
		t.Fatalf("POST /write (gzip) = %d %s, want 204", code, msg)
	}

	v := url.Values{"query": {`sum(cpu) by (host)`}, "start": {"10000"}, "end": {"100000"}, "step": {"10s"}}
	req, _ = http.NewRequest("GET", ts.URL+"/query?"+v.Encode(), nil)
	code, msg := do(t, req)
	if code != http.StatusOK {
		t.Fatalf("GET /query = %d %s", code, msg)
	}
	var res struct {
		Series []struct {
			Labels map[string]string
			Values []*float64
		}
	}
	if err := json.Unmarshal([]byte(msg), &res); err != nil {
		t.Fatalf("decoding %s: %v", msg, err)
	}
	if len(res.Series) != 2 || res.Series[0].Labels["host"] != "a" || *res.Series[0].Values[2] != 3 || *res.Series[1].Values[9] != 5 {
		t.Errorf("GET /query = %s", msg)
	}

	req, _ = http.NewRequest("GET", ts.URL+"/health", nil)
	code, msg = do(t, req)
	if code != http.StatusOK || !strings.Contains(msg, `"series":2`) || !strings.Contains(msg, `"points":4`) {
		t.Errorf("GET /health = %d %s", code, msg)
	}
}

func TestErrors(t *testing.T) {
	_, ts := newTestServer(t)
	tests := []struct {
		name, method, path, body string
		want                     int
	}{
		{"bad line", "POST", "/write", "cpu\n", 400},
		{"bad gzip", "POST", "/write", "not gzip", 400},
		{"missing query", "GET", "/query", "", 400},
		{"bad query", "GET", "/query?query=sum(", "", 400},
		{"bad step", "GET", "/query?query=cpu&step=1y", "", 400},
		{"bad start", "GET", "/query?query=cpu&start=yesterday", "", 400},
		{"wrong method", "GET", "/write", "", 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(tt.body))
			if tt.name == "bad gzip" {
				req.Header.Set("Content-Encoding", "gzip")
			}
			if code, msg := do(t, req); code != tt.want {
				t.Errorf("%s %s = %d %s, want %d", tt.method, tt.path, code, msg, tt.want)
			}
		})
	}
}
