// Package statedir holds the one rule for mbopt's state directory, .mbopt
// in a module root (profiles, application profiles, comparisons, the
// history): git must not see it. When mbopt creates the directory it writes
// a .gitignore of "*" into it, which ignores everything there, itself too,
// so the user's git status stays clean and nothing in it is committed (nor
// copied by compare --head worktree, which copies the files git does not
// ignore).
package statedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mbopt/mbopt/internal/atomicfile"
)

// Name is the state directory's name.
const Name = ".mbopt"

// Ignore writes dir/.gitignore ("*") unless one exists. A failure costs
// only a dirty git status, so it is not reported.
func Ignore(dir string) {
	gi := filepath.Join(dir, ".gitignore")
	if _, err := os.Lstat(gi); errors.Is(err, fs.ErrNotExist) {
		_ = atomicfile.WriteFile(gi, []byte("*\n"))
	}
}

// MkdirAll is os.MkdirAll (mode 0o777 before the umask) that also calls
// [Ignore] on each directory named [Name] it creates on the way to dir,
// dir included.
func MkdirAll(dir string) error {
	var created []string
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		if filepath.Base(p) == Name {
			if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				created = append(created, p)
			}
		}
		if parent := filepath.Dir(p); parent == p {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	for _, p := range created {
		Ignore(p)
	}
	return nil
}
