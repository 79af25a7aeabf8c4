package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOverwrites(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h#1.db")
	other := filepath.Join(dir, "other.txt")
	for _, p := range []string{db, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustLink := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	mustLink(os.Symlink(db, filepath.Join(dir, "link.db")))
	mustLink(os.Link(db, filepath.Join(dir, "hard.db")))
	mustLink(os.Symlink(dir, filepath.Join(dir, "dirlink")))
	t.Chdir(dir)
	inputs := []string{db, db + "-wal", db + "-shm"}
	for _, tc := range []struct {
		name, output, want string
	}{
		{"the input", db, db},
		{"a relative path to it", "h#1.db", db},
		{"through a dot-dot", filepath.Join(dir, "sub", "..", "h#1.db"), db},
		{"a symbolic link to it", filepath.Join(dir, "link.db"), db},
		{"a hard link to it", filepath.Join(dir, "hard.db"), db},
		{"through a linked directory", filepath.Join(dir, "dirlink", "h#1.db"), db},
		{"its -wal file, not there yet", db + "-wal", db + "-wal"},
		{"its -shm file through a linked directory", filepath.Join(dir, "dirlink", "h#1.db-shm"), db + "-shm"},
		{"another file", other, ""},
		{"a new file", filepath.Join(dir, "new.txt"), ""},
		{"a device", os.DevNull, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Overwrites(tc.output, inputs...); got != tc.want {
				t.Errorf("Overwrites(%q) = %q, want %q", tc.output, got, tc.want)
			}
		})
	}
	if got := Overwrites(os.DevNull, os.DevNull); got != "" {
		t.Errorf("Overwrites(/dev/null, /dev/null) = %q: a device is written in place", got)
	}
}
