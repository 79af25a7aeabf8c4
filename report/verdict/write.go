package verdict

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/report/github"
)

// Formats are the formats [Write] writes.
var Formats = []string{"text", "json", "markdown", "github"}

// Write writes the comparison r to w in format, one of [Formats]: text
// ([WriteText]), json (the indented compare.Report, its documented
// schema), markdown ([WriteMarkdown]) or github ([WriteGitHub]: the
// annotations, and the step summary, which Write returns for the caller to
// append to $GITHUB_STEP_SUMMARY; nil for the other formats).
func Write(w io.Writer, r *compare.Report, format string) (*github.StepSummary, error) {
	switch format {
	case "text":
		return nil, WriteText(w, r)
	case "json":
		data, err := json.MarshalIndent(r, "", "  ")
		if err == nil {
			_, err = w.Write(append(data, '\n'))
		}
		return nil, err
	case "markdown":
		return nil, WriteMarkdown(w, r)
	case "github":
		return WriteGitHub(w, r)
	}
	return nil, fmt.Errorf("verdict: unknown format %q", format)
}
