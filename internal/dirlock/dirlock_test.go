package dirlock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestLock(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no flock")
	}
	dir := t.TempDir()
	unlock, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A second lock, even in this process (another open file
	// description), fails at once and names the holder.
	_, err = Lock(dir)
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second Lock: %v, want a *LockedError", err)
	}
	if want := filepath.Join(dir, File); le.File != want {
		t.Errorf("File = %q, want %q", le.File, want)
	}
	if want := fmt.Sprintf("pid %d host ", os.Getpid()); !strings.HasPrefix(le.Holder, want) {
		t.Errorf("Holder = %q, want it to start with %q", le.Holder, want)
	}
	if !strings.Contains(err.Error(), le.File) || !strings.Contains(err.Error(), le.Holder) {
		t.Errorf("message %q names neither the file nor the holder", err)
	}
	unlock()
	unlock, err = Lock(dir)
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	unlock()

	_, err = Lock(filepath.Join(dir, "missing"))
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Errorf("Lock of a missing directory: %v, want an *fs.PathError", err)
	}
}
