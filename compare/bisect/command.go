package bisect

import (
	"strings"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/measure"
)

// Command returns the mbopt bisect command line that locates a change of
// the benchmark id (its package's import path, ".", its full name) in
// unit between the revisions good and bad: the benchmark's name as
// --bench, good and bad, the metric whose unit is unit as --metric, and
// the package as the argument, every word quoted for a POSIX shell. It
// returns "" when unit is no metric's (such as B/op) or id names no
// benchmark.
func Command(id, unit, good, bad string) string {
	pkg, name, ok := benchname.SplitID(id)
	if !ok || good == "" || bad == "" {
		return ""
	}
	for _, m := range measure.Metrics {
		if m.Unit() == unit {
			words := []string{"mbopt", "bisect", "--bench", name, "--good", good, "--bad", bad, "--metric", string(m), pkg}
			for i, w := range words {
				words[i] = textutil.ShellQuote(w)
			}
			return strings.Join(words, " ")
		}
	}
	return ""
}
