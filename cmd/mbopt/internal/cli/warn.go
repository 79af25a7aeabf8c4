package cli

import (
	"fmt"
	"io"

	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// Warn prints a warning on w (stderr), worded with the flags (see flagbind.Word):
// "mbopt: note: …" for an analysis.Note, which informs, "mbopt: warning: …"
// for anything else. Every warning mbopt prints goes through Warn, once.
func Warn(w io.Writer, warning error) {
	kind := "warning"
	if analysis.IsNote(warning) {
		kind = "note"
	}
	fmt.Fprintf(w, "mbopt: %s: %v\n", kind, flagbind.Word(warning, nil))
}

// Warnf prints a warning formatted as for fmt.Errorf with [Warn].
func Warnf(w io.Writer, format string, args ...any) { Warn(w, fmt.Errorf(format, args...)) }

// Skipped warns on w about the benchmark profiles the analysis rep skipped,
// one warning per reason (analysis.SkipGroup.String words it).
func Skipped(w io.Writer, rep *analysis.Report) {
	for _, g := range analysis.SkipGroups(rep.Skipped) {
		Warnf(w, "%s", g)
	}
}

// WordWarnings words the warnings of rep with the flags in place (see
// flagbind.Word), for the documents that list them as well.
func WordWarnings(rep *analysis.Report) {
	for i, w := range rep.Warnings {
		rep.Warnings[i] = flagbind.Word(w, nil)
	}
}

// Warnings prints the warnings and notes of the analysis rep on w.
func Warnings(w io.Writer, rep *analysis.Report) {
	for _, warning := range rep.Warnings {
		Warn(w, warning)
	}
}
