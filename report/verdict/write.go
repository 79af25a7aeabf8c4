package verdict

import (
	"bytes"
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

// Document returns the comparison r in format as the caller prints it (on
// standard output, or into a file). With github, the step summary is
// delivered to the file stepSummary ($GITHUB_STEP_SUMMARY), or, when that
// is empty, follows the annotations (see github.StepSummary.Deliver). A
// summary that cannot be appended is an input error about the setting
// github.FieldStepSummary, returned with the document: the caller prints
// the document, then reports the error.
func Document(r *compare.Report, format, stepSummary string) ([]byte, error) {
	var out bytes.Buffer
	sum, err := Write(&out, r, format)
	if err != nil || sum == nil {
		return out.Bytes(), err
	}
	stdout, err := sum.Deliver(stepSummary)
	out.Write(stdout)
	return out.Bytes(), err
}

// CheckStepSummary checks, before the comparison runs, that [Document] in
// format can append its step summary to the file stepSummary: only github
// appends one (see github.CheckStepSummary).
func CheckStepSummary(format, stepSummary string) error {
	if format != "github" {
		return nil
	}
	return github.CheckStepSummary(stepSummary)
}
