package verdict

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/mbopt/mbopt/compare/mutate"
)

// MutationFormats are the formats [WriteMutation] writes.
var MutationFormats = []string{"text", "json"}

// WriteMutation writes the mutant r to w in format, one of
// [MutationFormats]: text (whether the suite caught it and by which
// benchmarks, how the busy loop was sized, then the comparison as
// [WriteText] writes it) or json (the indented mutate.Result: a top-level
// "caught" beside the comparison).
func WriteMutation(w io.Writer, r *mutate.Result, format string) error {
	switch format {
	case "json":
		return writeIndented(w, r)
	case "text":
		var b bytes.Buffer
		verdict := "not caught: no benchmark reports a definite regression"
		if r.Caught {
			verdict = "caught by " + strings.Join(r.CaughtBy, ", ")
		}
		fmt.Fprintf(&b, "mutant: %s %+.4g%% of its own cost per call: %s\n", r.Function, 100*r.Slowdown, verdict)
		z := r.Sizing
		fmt.Fprintf(&b, "sized by %s: %.0f own instructions per call, %.3g calls per operation; a busy loop of %d iterations (%.3g instructions each) at its entry in %s",
			r.SizedBy, z.PerCall, z.CallsPerOp, r.Iterations, z.PerIteration, r.File)
		if r.Added > 1.05*r.Slowdown {
			fmt.Fprintf(&b, "; the function is too small for less: the loop adds %+.4g%%", 100*r.Added)
		}
		b.WriteString("\n\n")
		if _, err := w.Write(b.Bytes()); err != nil {
			return err
		}
		return WriteText(w, r.Report)
	}
	return fmt.Errorf("verdict: unknown format %q", format)
}
