package callgraph

import (
	"bytes"
	"compress/gzip"
	"errors"
	"testing"
)

// TestGunzipTwoPass covers both paths of gunzip: data that fits the eager
// buffer, data decompressed a second time after its size was counted, and
// data over the limit, at the boundaries.
func TestGunzipTwoPass(t *testing.T) {
	raw := bytes.Repeat([]byte("profile bytes "), 1000) // 14,000 bytes
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(raw)
	w.Close()
	n := int64(len(raw))
	tests := []struct {
		name       string
		max, eager int64
		wantLimit  bool
	}{
		{"fits eager buffer", n, n, false},
		{"second pass", n, 100, false},
		{"second pass, roomy limit", 10 * n, 1, false},
		{"over limit while eager", n - 1, n, true},
		{"over limit while counting", n - 1, 100, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := gunzip(z.Bytes(), tt.max, tt.eager)
			if tt.wantLimit {
				var le *LimitError
				if !errors.As(err, &le) || le.Size != tt.max+1 && le.Size != n {
					t.Fatalf("gunzip(max=%d, eager=%d) = %v, want a LimitError", tt.max, tt.eager, err)
				}
				return
			}
			if err != nil || !bytes.Equal(got, raw) {
				t.Fatalf("gunzip(max=%d, eager=%d) = %d bytes, %v; want the %d input bytes", tt.max, tt.eager, len(got), err, n)
			}
		})
	}
}
