package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestKind(t *testing.T) {
	tests := []struct {
		mode fs.FileMode
		want string
	}{
		{0o644, "a regular file"},
		{fs.ModeDir | 0o755, "a directory"},
		{fs.ModeNamedPipe | 0o644, "a named pipe (FIFO)"},
		{fs.ModeSocket, "a socket"},
		{fs.ModeDevice | fs.ModeCharDevice, "a character device"},
		{fs.ModeDevice, "a device"},
		{fs.ModeSymlink, "a symbolic link"},
		{fs.ModeIrregular, "an irregular file"},
	}
	for _, tt := range tests {
		if got := Kind(tt.mode); got != tt.want {
			t.Errorf("Kind(%v) = %q, want %q", tt.mode, got, tt.want)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "costs.json")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("fifo", link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		max        int64
		want       string
		is         error
		tooLarge   bool
	}{
		{name: "regular", path: file, max: 10, want: "0123456789"},
		{name: "over the limit", path: file, max: 9, tooLarge: true},
		{name: "named pipe", path: fifo, max: 10, is: ErrNotRegular},
		{name: "link to a named pipe", path: link, max: 10, is: ErrNotRegular},
		{name: "directory", path: dir, max: 10, is: ErrNotRegular},
		{name: "missing", path: filepath.Join(dir, "nope"), max: 10, is: fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			type result struct {
				data []byte
				err  error
			}
			done := make(chan result, 1)
			go func() {
				data, err := ReadFile(tt.path, tt.max)
				done <- result{data, err}
			}()
			var r result
			select {
			case r = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("ReadFile(%s) blocked", tt.path)
			}
			var tl *TooLargeError
			switch {
			case tt.tooLarge:
				if !errors.As(r.err, &tl) || tl.Size != 10 || tl.Max != tt.max {
					t.Fatalf("ReadFile(%s, %d) = %v, want a TooLargeError of 10 bytes", tt.path, tt.max, r.err)
				}
			case tt.is != nil:
				if !errors.Is(r.err, tt.is) {
					t.Fatalf("ReadFile(%s) = %v, want an error matching %v", tt.path, r.err, tt.is)
				}
			case r.err != nil || string(r.data) != tt.want:
				t.Fatalf("ReadFile(%s) = %q, %v; want %q", tt.path, r.data, r.err, tt.want)
			}
		})
	}
}
