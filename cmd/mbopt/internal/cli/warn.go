package cli

import (
	"cmp"
	"fmt"
	"io"

	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// Warn prints a warning on w (stderr), worded with the flags (see [Word]):
// "mbopt: note: …" for an analysis.Note, which informs, "mbopt: warning: …"
// for anything else. Every warning mbopt prints goes through Warn, once.
func Warn(w io.Writer, warning error) {
	kind := "warning"
	if analysis.IsNote(warning) {
		kind = "note"
	}
	fmt.Fprintf(w, "mbopt: %s: %v\n", kind, Word(warning, nil))
}

// Warnf prints a warning formatted as for fmt.Errorf with [Warn].
func Warnf(w io.Writer, format string, args ...any) { Warn(w, fmt.Errorf(format, args...)) }

// Skipped warns on w about the benchmark profiles the analysis rep skipped,
// one warning per reason (analysis.SkipGroups): a profile skipped alone for
// its reason is named with its file, several with the first three names.
func Skipped(w io.Writer, rep *analysis.Report) {
	for _, g := range analysis.SkipGroups(rep.Skipped) {
		if len(g.Skips) > 1 {
			names := make([]string, len(g.Skips))
			for i, s := range g.Skips {
				names[i] = cmp.Or(s.ID, s.File)
			}
			Warnf(w, "skipping %d benchmarks (%s; the report lists each with its file): %s", len(names), textutil.List(names, 3), g.Reason)
			continue
		}
		if s := g.Skips[0]; s.ID != "" {
			Warnf(w, "skipping %s (%s): %s", s.ID, s.File, s.Reason)
		} else {
			Warnf(w, "skipping %s: %s", s.File, s.Reason)
		}
	}
}

// WordWarnings words the warnings of rep with the flags in place (see
// [Word]), for the documents that list them as well.
func WordWarnings(rep *analysis.Report) {
	for i, w := range rep.Warnings {
		rep.Warnings[i] = Word(w, nil)
	}
}

// Warnings prints the warnings and notes of the analysis rep on w.
func Warnings(w io.Writer, rep *analysis.Report) {
	for _, warning := range rep.Warnings {
		Warn(w, warning)
	}
}
