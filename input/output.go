package input

import "github.com/mbopt/mbopt/internal/atomicfile"

// CheckOutput refuses an output file, the value of the setting field, that
// is one of inputs (see atomicfile.Overwrites, which sees through links):
// writing the result there would silently destroy the input. An empty
// output (standard output) is never an input.
func CheckOutput(field Field, output string, inputs ...string) error {
	if output == "" {
		return nil
	}
	if in := atomicfile.Overwrites(output, inputs...); in != "" {
		return Errorf("%s %s is the input %s: writing the result there would overwrite it; choose another file", field, output, in)
	}
	return nil
}
