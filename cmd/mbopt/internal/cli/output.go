package cli

import (
	"fmt"
	"io"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/atomicfile"
)

// FieldOutput names -o, every command's output file, in the errors of
// mbopt.CheckOutput, as the comparison half's configurations name theirs
// (compare/flow's CompareConfig.Output).
const FieldOutput mbopt.Field = "Output"

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
