package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// DriftDocument is the JSON document of a drift check (mbopt check
// --format json): the saved suite's file, the module's directory and the
// check's result, whose fields (see analysis.Drift) sit beside them.
type DriftDocument struct {
	// Suite is the saved suite's file.
	Suite string `json:"suite"`
	// Dir is the directory of the module checked.
	Dir string `json:"dir"`
	// Drift is the result; its fields are the document's.
	*analysis.Drift
}

// WriteDriftJSON writes d, the drift check of the saved suite in the file
// suite against the module in dir, as an indented [DriftDocument].
func WriteDriftJSON(w io.Writer, suite, dir string, d *analysis.Drift) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(DriftDocument{suite, dir, d})
}

// WriteDriftText writes d, the drift check of the saved suite in the file
// suite against the module in dir, as text: a title line, the suite's
// coverage when the check measured it, and one line per finding (kind and
// message), or "no drift".
func WriteDriftText(w io.Writer, suite, dir string, d *analysis.Drift) error {
	fmt.Fprintf(w, "mbopt: drift check of %s (%s) against %s\n", suite, textutil.Plural(d.Benchmarks, "benchmark"), dir)
	if d.Coverage != nil {
		fmt.Fprintf(w, "suite coverage  %d/%d project functions  %.1f%% (all profiled benchmarks: %.1f%%)\n",
			d.Coverage.Covered, d.Coverage.Total, 100*d.Coverage.Ratio, 100*d.FullCoverage.Ratio)
	}
	if len(d.Findings) == 0 {
		_, err := fmt.Fprintln(w, "no drift")
		return err
	}
	width := 0
	for _, f := range d.Findings {
		width = max(width, len(f.Kind))
	}
	for _, f := range d.Findings {
		if _, err := fmt.Fprintf(w, "  %-*s  %s\n", width, f.Kind, f.Message); err != nil {
			return err
		}
	}
	return nil
}
