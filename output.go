package mbopt

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mbopt/mbopt/internal/atomicfile"
)

// CheckOutput is the one check of an output file, the value of the setting
// field, before anything is computed: it must not be one of inputs (see
// atomicfile.Overwrites, which sees through links), as writing the result
// there would silently destroy the input; it must not be a directory; and
// its directory must exist. An empty output (standard output) is always
// fine.
func CheckOutput(field Field, output string, inputs ...string) error {
	if output == "" {
		return nil
	}
	if in := atomicfile.Overwrites(output, inputs...); in != "" {
		return Errorf("%s %s is the input %s: writing the result there would overwrite it; choose another file", field, output, in)
	}
	target, fi, err := atomicfile.Resolve(output)
	if err != nil {
		return Errorf("%s %s: %v; choose another output file", field, output, err)
	}
	if fi != nil && fi.IsDir() {
		return Errorf("%s %s: is a directory; %s names the file to write", field, output, field)
	}
	if _, err := os.Stat(filepath.Dir(target)); err != nil {
		return Errorf("%s %s: the directory %s does not exist; create it or choose another output file", field, output, filepath.Dir(target))
	}
	return nil
}

// WriteOutput writes data, a command's result, to stdout when output is
// empty, else to the file output through a temporary file renamed into
// place (see atomicfile.Create), so a failure never leaves a half-written
// file. An output that cannot be created (a directory, a missing parent)
// is an input error; callers find it first with [CheckOutput], before
// they compute anything.
func WriteOutput(stdout io.Writer, output string, data []byte) error {
	if output == "" {
		_, err := stdout.Write(data)
		return err
	}
	f, err := atomicfile.Create(output)
	if err != nil {
		return Errorf("writing %s: %v", output, err)
	}
	defer f.Cleanup()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", output, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("writing %s: %w", output, err)
	}
	return nil
}
