package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// ReplaceDir replaces the directory dir with one that fill builds: fill
// gets a new, empty sibling directory (named like this package's temporary
// files), and only when it returns nil does that directory take dir's
// place, as one rename where the system allows it (Linux exchanges the two
// directories atomically), else as two renames close together. The old
// directory is then removed with everything in it, so no file of an earlier
// run survives. On error or a kill before the swap, dir is untouched and
// the temporary directory is removed (or, after a kill, recognisable with
// [IsTemp]).
//
// ReplaceDir deletes dir's old content: the caller decides whether dir may
// be replaced (for instance, that it holds only files the caller wrote). A
// symbolic link dir is followed and its target replaced.
func ReplaceDir(dir string, fill func(tmp string) error) (err error) {
	target, fi, err := Resolve(dir)
	if err != nil {
		return err
	}
	if fi != nil && !fi.IsDir() {
		return fmt.Errorf("%s: not a directory", dir)
	}
	parent := filepath.Dir(target)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(target)+tempInfix+"*")
	if err != nil {
		return err
	}
	track(tmp)
	defer func() {
		// After a successful swap tmp holds the old directory.
		os.RemoveAll(tmp)
		untrack(tmp)
	}()
	mode := os.FileMode(0o755)
	if fi != nil {
		mode = fi.Mode().Perm()
	}
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	if err := fill(tmp); err != nil {
		return err
	}
	syncDir(tmp)
	if fi == nil {
		if err := os.Rename(tmp, target); err != nil {
			return err
		}
		syncDir(parent)
		return nil
	}
	if err := exchange(tmp, target); err != nil {
		return err
	}
	syncDir(parent)
	return nil
}

// renameSwap swaps directories a and b with two renames, for systems
// without an atomic exchange: b moves aside, a takes its place, and the old
// b ends up at a's name.
func renameSwap(a, b string) error {
	aside, err := os.MkdirTemp(filepath.Dir(b), "."+filepath.Base(b)+tempInfix+"old-*")
	if err != nil {
		return err
	}
	if err := os.Remove(aside); err != nil {
		return err
	}
	if err := os.Rename(b, aside); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		os.Rename(aside, b) // put the old directory back
		return err
	}
	return os.Rename(aside, a)
}
