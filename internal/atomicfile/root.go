package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// WriteFileIn writes data to name, a local path inside root, atomically:
// through a temporary file in name's directory (named as [Create] names
// them, so [IsTemp] and [RemoveTemps] know it) that is synced and renamed
// over name. Every step goes through root, so no symbolic link and no ".."
// leads outside it; a symbolic link at name itself is replaced, not
// followed. name's directory must exist. A name that is a directory is an
// error; an existing file keeps its permission bits, a new one gets 0644.
func WriteFileIn(root *os.Root, name string, data []byte) (err error) {
	mode := fs.FileMode(0o644)
	if fi, err := root.Lstat(name); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s: is a directory", filepath.Join(root.Name(), name))
		}
		if fi.Mode().IsRegular() {
			mode = fi.Mode().Perm()
		}
	}
	dir, base := filepath.Split(name)
	var tmp string
	var f *os.File
	for i := 0; ; i++ {
		tmp = filepath.Join(dir, "."+base+tempInfix+strconv.FormatUint(rand.Uint64(), 36))
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || i == 100 {
			return err
		}
	}
	full := filepath.Join(root.Name(), tmp)
	track(full)
	defer func() {
		if err != nil {
			f.Close()
			root.Remove(tmp)
		}
		untrack(full)
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := root.Rename(tmp, name); err != nil {
		return err
	}
	syncDir(filepath.Join(root.Name(), dir))
	return nil
}
