package testbin

import (
	"bytes"
	"context"
	"testing"
	"time"
)

func TestTailBufferKeepsTheTail(t *testing.T) {
	var b TailBuffer
	chunk := bytes.Repeat([]byte("x"), MaxOutput/2)
	for range 5 {
		b.Write(chunk)
	}
	b.Write([]byte("END"))
	got := b.Bytes()
	if !bytes.HasPrefix(got, []byte("[output truncated]\n")) || !bytes.HasSuffix(got, []byte("END")) || len(got) > 2*MaxOutput+100 {
		t.Errorf("TailBuffer kept %d bytes starting %q", len(got), got[:20])
	}
}

func TestBuildError(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"# example.com/m/broken\nbroken.go:5:17: cannot use x\n\n", "broken.go:5:17: cannot use x"},
		{"# a\na.go:1: x\r\n# b\nb.go:2: y\n", "a.go:1: x\nb.go:2: y"},
		{"", ""},
	} {
		if got := BuildError([]byte(tc.out)); got != tc.want {
			t.Errorf("BuildError(%q) = %q, want %q", tc.out, got, tc.want)
		}
	}
}

func TestRunTimeoutAndCancel(t *testing.T) {
	r := Run(context.Background(), t.TempDir(), nil, 100*time.Millisecond, "sleep", "10")
	if !r.TimedOut || r.Err == nil || r.Wall > 5*time.Second {
		t.Errorf("timeout: %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := Run(ctx, t.TempDir(), nil, time.Minute, "sleep", "10"); r.Err != context.Canceled {
		t.Errorf("canceled: Err = %v, want context.Canceled", r.Err)
	}
	if r := Run(context.Background(), t.TempDir(), nil, time.Minute, "echo", "hi"); r.Err != nil || string(r.Output) != "hi\n" {
		t.Errorf("echo: %+v", r)
	}
}
