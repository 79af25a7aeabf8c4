package gomod

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("m/go.mod", "// a comment\nmodule \"example.com/m\" // quoted, with a comment\n\ngo 1.24\n")
	write("m/p/q/x.go", "package q\n")
	write("m/nested/go.mod", "module example.com/m/nested\n")
	write("m/nested/sub/y.go", "package sub\n")
	write("bad/go.mod", "go 1.24\n")
	write("none/z.go", "package z\n")

	tests := []struct {
		name    string
		dir     string
		want    Module
		wantErr error
	}{
		{"module root", "m", Module{Path: "example.com/m", Dir: filepath.Join(root, "m"), GoMod: filepath.Join(root, "m", "go.mod")}, nil},
		{"below the root", "m/p/q", Module{Path: "example.com/m", Dir: filepath.Join(root, "m"), GoMod: filepath.Join(root, "m", "go.mod")}, nil},
		{"the nearest go.mod wins", "m/nested/sub", Module{Path: "example.com/m/nested", Dir: filepath.Join(root, "m", "nested"), GoMod: filepath.Join(root, "m", "nested", "go.mod")}, nil},
		{"no module directive", "bad", Module{}, ErrNoModulePath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Find(filepath.Join(root, tt.dir))
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("Find(%s) = %+v, %v; want %+v, %v", tt.dir, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestFindOutsideAModule(t *testing.T) {
	// The temporary directory may itself be under a go.mod (a module
	// checked out in /tmp); only a directory without one above tests this.
	dir := t.TempDir()
	if _, err := os.Stat("/go.mod"); err == nil {
		t.Skip("/go.mod exists")
	}
	for d := dir; filepath.Dir(d) != d; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			t.Skipf("%s holds a go.mod", d)
		}
	}
	_, err := Find(dir)
	if !errors.Is(err, ErrNoModule) {
		t.Fatalf("Find(%s) = %v, want ErrNoModule", dir, err)
	}
	if want := dir + " is not inside a Go module"; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("error %q does not start %q", err, want)
	}
}
