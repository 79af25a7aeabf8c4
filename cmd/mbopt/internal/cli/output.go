package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/internal/atomicfile"
)

// Output writes data to stdout, or to path (-o) through a temporary file
// renamed into place, so a failure never leaves a half-written file.
func Output(stdout io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := stdout.Write(data)
		return err
	}
	if err := CheckOutput(path); err != nil {
		return err
	}
	return WriteFile(path, data)
}

// WriteFile writes data to path with an [atomicfile.File]. A path that
// cannot be created (a directory, a missing parent) is bad input.
func WriteFile(path string, data []byte) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return input.Errorf("writing %s: %v", path, err)
	}
	defer f.Cleanup()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// CheckOutput words the usual reasons why -o cannot be written: its
// directory is missing, or it is a directory.
func CheckOutput(path string) error {
	target, fi, err := atomicfile.Resolve(path)
	if err != nil {
		return input.Errorf("-o %s: %v; choose another output file", path, err)
	}
	if fi != nil && fi.IsDir() {
		return input.Errorf("-o %s: is a directory; -o names the file to write", path)
	}
	if _, err := os.Stat(filepath.Dir(target)); err != nil {
		return input.Errorf("-o %s: the directory %s does not exist; create it or choose another output file", path, filepath.Dir(target))
	}
	return nil
}
