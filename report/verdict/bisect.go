package verdict

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/mbopt/mbopt/compare/bisect"
)

// BisectFormats are the formats [WriteBisect] writes.
var BisectFormats = []string{"text", "json"}

// WriteBisect writes the bisection r to w in format, one of
// [BisectFormats]: text (bisect.Result.WriteText, followed, when r has an
// Explanation, by that comparison as [WriteText] writes it) or json (the
// indented bisect.Result, its documented schema).
func WriteBisect(w io.Writer, r *bisect.Result, format string) error {
	switch format {
	case "json":
		return writeIndented(w, r)
	case "text":
		if err := r.WriteText(w); err != nil || r.Explanation == nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "\nlast good → first bad, with the culprit functions:\n\n"); err != nil {
			return err
		}
		return WriteText(w, r.Explanation)
	}
	return fmt.Errorf("verdict: unknown format %q", format)
}

// writeIndented writes v as indented JSON, the json format of the
// documents whose schema is a library type (a bisection, a mutant).
func writeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
