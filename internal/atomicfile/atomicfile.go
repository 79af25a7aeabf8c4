// Package atomicfile writes files and directories so that a reader sees
// either the old content or the new one, never a mix, and a failure at any
// point (an error, a kill) leaves no partial target behind. It is the one
// place where mbopt writes its results; every output goes through it.
//
// The rules, in order:
//
//   - A symbolic link is followed to its final target, which is written
//     (the link stays a link). A dangling link's target is created.
//   - A target that exists and is neither a regular file nor a directory
//     (/dev/null, /dev/stdout, a named pipe) is written in place: renaming
//     over it would replace the device or pipe with a regular file.
//   - A directory target is an error.
//   - Otherwise the data goes to a temporary file in the target's
//     directory (named "."+base+".tmp-*", so a later run can recognise and
//     remove stale ones with [IsTemp]), which is synced and renamed over
//     the target. An existing target keeps its permission bits; a new one
//     gets 0644.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// tempInfix separates a target's base name from the random suffix of its
// temporary files and directories.
const tempInfix = ".tmp-"

// IsTemp reports whether name (a base name) is one of this package's
// temporary files or directories, as left behind by a process that was
// killed between creating and renaming it.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempInfix)
}

// live holds this process's temporary files and directories that are not
// yet renamed into place or removed, for [RemoveTemps].
var live struct {
	sync.Mutex
	paths map[string]bool
}

func track(path string) {
	live.Lock()
	defer live.Unlock()
	if live.paths == nil {
		live.paths = map[string]bool{}
	}
	live.paths[path] = true
}

func untrack(path string) {
	live.Lock()
	delete(live.paths, path)
	live.Unlock()
}

// RemoveTemps removes every temporary file and directory that this process
// created and has not yet renamed into place or removed. A process that is
// about to exit without unwinding (on a signal, see package
// internal/interrupt) calls it so that it leaves no temporary file behind;
// the targets are untouched. It is safe for concurrent use.
func RemoveTemps() {
	live.Lock()
	paths := live.paths
	live.paths = nil
	live.Unlock()
	for p := range paths {
		os.RemoveAll(p)
	}
}

// maxLinks bounds symbolic link resolution, as the kernel does (ELOOP).
const maxLinks = 40

// Resolve returns the path that writing to path changes: path with every
// symbolic link followed, even a dangling one. info describes the final
// target, nil when it does not exist yet.
func Resolve(path string) (target string, info fs.FileInfo, err error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, fi, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", nil, fmt.Errorf("%s: too many levels of symbolic links", path)
}

// A File is a temporary file that replaces its target on [File.Commit].
// Until then the target is untouched; [File.Cleanup] (safe to defer, and a
// no-op after Commit) removes the temporary file.
//
// For a target written in place (a device or pipe, see the package
// documentation) the File is the target itself, and Cleanup only closes it.
type File struct {
	// File is the open temporary file (or the target itself, when written
	// in place); write to it, then call Commit.
	*os.File
	target  string
	mode    fs.FileMode
	inPlace bool
	done    bool
}

// Create starts writing path. The caller writes to the returned File (or
// closes it and lets another process write to [File.Name]) and then calls
// Commit.
func Create(path string) (*File, error) {
	target, fi, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	mode := fs.FileMode(0o644)
	if fi != nil {
		switch {
		case fi.IsDir():
			return nil, fmt.Errorf("%s: is a directory", path)
		case !fi.Mode().IsRegular():
			f, err := os.OpenFile(target, os.O_WRONLY, 0)
			if err != nil {
				return nil, err
			}
			return &File{File: f, target: target, inPlace: true}, nil
		}
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+tempInfix+"*")
	if err != nil {
		return nil, err
	}
	track(f.Name())
	return &File{File: f, target: target, mode: mode}, nil
}

// Commit syncs the data and renames the temporary file over the target.
// It may be called after the caller closed the File. On error the target is
// unchanged and the temporary file is removed.
func (f *File) Commit() (err error) {
	if f.done {
		return errors.New("atomicfile: Commit after Commit or Cleanup")
	}
	defer func() {
		if err != nil {
			f.Cleanup()
		}
	}()
	if f.inPlace {
		f.done = true
		if err := f.File.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
			return err
		}
		return nil
	}
	file := f.File
	if err := file.Sync(); errors.Is(err, os.ErrClosed) {
		// Closed by the caller (another process may have written it):
		// reopen to sync what is on disk.
		if file, err = os.OpenFile(f.Name(), os.O_RDWR, 0); err != nil {
			return err
		}
		f.File = file
		if err := file.Sync(); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	if err := file.Chmod(f.mode); err != nil {
		return err
	}
	if err := file.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), f.target); err != nil {
		return err
	}
	f.done = true
	untrack(f.Name())
	syncDir(filepath.Dir(f.target))
	return nil
}

// Cleanup closes the File and removes the temporary file unless Commit
// succeeded. It is safe to call more than once.
func (f *File) Cleanup() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	if !f.inPlace {
		os.Remove(f.Name())
		untrack(f.Name())
	}
}

// Write writes path atomically with the content that fill writes.
func Write(path string, fill func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Cleanup()
	if err := fill(f); err != nil {
		return err
	}
	return f.Commit()
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// syncDir makes a rename in dir durable. Failures are ignored: some file
// systems cannot sync directories, and the rename itself has succeeded.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
