package report

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/suite"
)

// A StepSummary is an analysis as a GitHub Actions step reports it: the
// selected suite for the next step to run, and a Markdown summary for the
// job's page.
type StepSummary struct {
	// Suite is the minimal suite as `go test` command lines (see package
	// suite) when every pick's package is known (see
	// analysis.SuiteBenchmarks), else the picked benchmark ids, one per
	// line, in pick order.
	Suite string
	// Markdown is the short Markdown form of the report
	// ([MarkdownOptions].Summary) with Suite shown as a code block.
	Markdown []byte
}

// GitHub returns the step summary of rep, whose Document is d.
func GitHub(rep *analysis.Report, d *Document) (*StepSummary, error) {
	s := &StepSummary{Suite: suiteLines(rep)}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, d, MarkdownOptions{Summary: true, Suite: s.Suite}); err != nil {
		return nil, err
	}
	s.Markdown = md.Bytes()
	return s, nil
}

// suiteLines returns the suite as `go test` command lines when every pick
// maps to a package and name (from its manifest entry or its id), else the
// picked ids, one per line, in pick order.
func suiteLines(rep *analysis.Report) string {
	if sel, err := analysis.SuiteBenchmarks(rep); err == nil && len(sel) > 0 {
		if invs, err := suite.Plan(sel, suite.Options{}); err == nil {
			var b bytes.Buffer
			if suite.Write(&b, invs, suite.FormatShell) == nil {
				return b.String()
			}
		}
	}
	var ids strings.Builder
	for _, id := range rep.Suite.IDs() {
		fmt.Fprintln(&ids, id)
	}
	return ids.String()
}

// Append appends s.Markdown to the file at path, creating it (mode 0644)
// when missing: GitHub Actions gives each step such a file in
// $GITHUB_STEP_SUMMARY and shows what the step appended. The file belongs
// to the runner, so it is appended to in one write, not replaced. Errors
// name path.
func (s *StepSummary) Append(path string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("appending the step summary: %w", err)
	}
	if _, err := f.Write(s.Markdown); err != nil {
		f.Close()
		return fmt.Errorf("appending the step summary to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("appending the step summary to %s: %w", path, err)
	}
	return nil
}
