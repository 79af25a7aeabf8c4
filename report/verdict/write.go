package verdict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mbopt/mbopt"
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

// FieldStepSummary is the setting the stepSummary of [Document] stands for
// in its errors ($GITHUB_STEP_SUMMARY on mbopt's command line).
const FieldStepSummary mbopt.Field = "StepSummary"

// Document returns the comparison r in format as the caller prints it (on
// standard output, or into a file). With github, the step summary is
// appended to the file stepSummary ($GITHUB_STEP_SUMMARY), or, when that
// is empty, follows the annotations. A summary that cannot be appended
// (see github.StepSummary.Append: a full disk leaves none of it) is an
// input error about the setting StepSummary, returned with the document:
// the caller prints the document, then reports the error.
func Document(r *compare.Report, format, stepSummary string) ([]byte, error) {
	var out bytes.Buffer
	sum, err := Write(&out, r, format)
	if err != nil || sum == nil {
		return out.Bytes(), err
	}
	if stepSummary == "" {
		out.Write(sum.Markdown)
	} else if err := sum.Append(stepSummary); err != nil {
		return out.Bytes(), mbopt.Errorf("%s: %v; free space, point GITHUB_STEP_SUMMARY at a writable file, or unset it to get the summary on stdout", FieldStepSummary, err)
	}
	return out.Bytes(), nil
}

// CheckStepSummary checks, before the comparison runs, that [Document] in
// format can append its step summary to the file stepSummary: only github
// appends one, and only to a file given (see github.CheckStepSummary). A
// file that cannot take it is an input error about the setting
// StepSummary.
func CheckStepSummary(format, stepSummary string) error {
	if format != "github" || stepSummary == "" {
		return nil
	}
	if err := github.CheckStepSummary(stepSummary); err != nil {
		return mbopt.Errorf("%s: %v; point GITHUB_STEP_SUMMARY at a writable file, or unset it to get the summary on stdout", FieldStepSummary, err)
	}
	return nil
}
