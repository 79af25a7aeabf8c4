package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/atomicfile"
)

// Output writes data to stdout, or to path (-o) through a temporary file
// renamed into place, so a failure never leaves a half-written file. The
// commands check path with mbopt.CheckOutput before they compute anything.
func Output(stdout io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := stdout.Write(data)
		return err
	}
	return WriteFile(path, data)
}

// WriteFile writes data to path with an [atomicfile.File]. A path that
// cannot be created (a directory, a missing parent) is bad input.
func WriteFile(path string, data []byte) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return mbopt.Errorf("writing %s: %v", path, err)
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

// DirError is err, a failure to write what (the figures, the site) into
// the directory dir that flag names, as bad input naming the flag and the
// directory: "--plot DIR: cannot write the figures there: permission
// denied; give a directory you can write". The operating system's reason
// comes without the file it failed on (a temporary file's name means
// nothing to the user). An error that is not about a file passes
// unchanged.
func DirError(flag, dir, what string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	reason := ""
	switch {
	case errors.As(err, &pe):
		reason = pe.Err.Error()
	case errors.As(err, &le):
		reason = le.Err.Error()
	default:
		return err
	}
	return mbopt.Errorf("%s %s: cannot write the %s there: %s; give a directory you can write", flag, dir, what, reason)
}
