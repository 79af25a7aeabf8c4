package statedir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMkdirAll(t *testing.T) {
	root := t.TempDir()
	for _, tc := range []struct {
		name, dir string
		ignored   []string // directories that must hold a .gitignore after
		notIgnore []string // directories that must not
	}{
		{"the state directory itself", ".mbopt", []string{".mbopt"}, nil},
		{"a directory below it", "m/.mbopt/compare", []string{"m/.mbopt"}, []string{"m/.mbopt/compare"}},
		{"no state directory", "out/compare", nil, []string{"out", "out/compare"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := MkdirAll(filepath.Join(root, tc.dir)); err != nil {
				t.Fatal(err)
			}
			for _, d := range tc.ignored {
				data, err := os.ReadFile(filepath.Join(root, d, ".gitignore"))
				if err != nil || string(data) != "*\n" {
					t.Errorf("%s/.gitignore: %q, %v; want \"*\\n\"", d, data, err)
				}
			}
			for _, d := range tc.notIgnore {
				if _, err := os.Stat(filepath.Join(root, d, ".gitignore")); err == nil {
					t.Errorf("%s/.gitignore written", d)
				}
			}
		})
	}
	// An existing state directory is the user's: its .gitignore (or its
	// absence) stays as it is.
	own := filepath.Join(root, "own", ".mbopt")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(filepath.Join(own, "compare")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(own, ".gitignore")); err == nil {
		t.Error("a .gitignore was written into a state directory mbopt did not create")
	}
	// Ignore keeps an existing .gitignore.
	if err := os.WriteFile(filepath.Join(own, ".gitignore"), []byte("profiles/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	Ignore(own)
	if data, _ := os.ReadFile(filepath.Join(own, ".gitignore")); string(data) != "profiles/\n" {
		t.Errorf("Ignore replaced an existing .gitignore: %q", data)
	}
}
