package progress

import (
	"bytes"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	tests := []struct {
		name     string
		terminal bool
		width    int
		want     string
	}{
		{"log", false, 0, "done\n"},
		{"terminal", true, 80, "\r\033[Kbuilding 1/2\r\033[Kdone\n"},
		{"narrow terminal", true, 6, "\r\033[Kbuild\r\033[Kdone\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		l := &Line{W: &b, Terminal: tt.terminal, Width: tt.width}
		l.Draw("building 1/2")
		l.Println("done")
		l.Clear() // nothing drawn since: prints nothing
		if b.String() != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, b.String(), tt.want)
		}
	}
}

func TestBarETA(t *testing.T) {
	tests := []struct {
		done, total int
		took        time.Duration
		want, eta   string
	}{
		{0, 0, 0, "[                        ]", "--"},
		{2, 4, 10 * time.Second, "[============            ]", "10s"},
		{5, 4, time.Second, "[========================]", "0s"},
	}
	for _, tt := range tests {
		if got := Bar(tt.done, tt.total); got != tt.want {
			t.Errorf("Bar(%d, %d) = %q, want %q", tt.done, tt.total, got, tt.want)
		}
		if got := ETA(tt.took, tt.done, tt.total-tt.done); got != tt.eta {
			t.Errorf("ETA(%v, %d, %d) = %q, want %q", tt.took, tt.done, tt.total-tt.done, got, tt.eta)
		}
	}
}
