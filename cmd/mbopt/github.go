package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/report"
	"github.com/mbopt/mbopt/suite"
)

// writeGitHub implements analyze --format github: the selected suite goes
// to stdout (or -o), as `go test` commands when every pick's package is
// known (see analysis.SuiteBenchmarks), else as benchmark ids,
// one per line in pick order; a Markdown step summary is appended to the
// file named by $GITHUB_STEP_SUMMARY, or, when that is unset, written to
// stdout and the suite only to -o.
func writeGitHub(s *streams, o *analyzeOptions, rep *analysis.Report, d *report.Document) error {
	commands := suiteCommands(rep)
	var md bytes.Buffer
	if err := report.WriteMarkdown(&md, d, report.MarkdownOptions{Summary: true, Suite: commands}); err != nil {
		return err
	}
	summary := os.Getenv("GITHUB_STEP_SUMMARY")
	if summary == "" {
		if _, err := s.Out.Write(md.Bytes()); err != nil {
			return err
		}
		if o.output == "" {
			return nil
		}
		return writeFileAtomic(o.output, []byte(commands))
	}
	f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("writing the step summary ($GITHUB_STEP_SUMMARY): %w", err)
	}
	if _, err := f.Write(md.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("writing the step summary %s: %w", summary, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the step summary %s: %w", summary, err)
	}
	return writeOutput(s.Out, o.output, []byte(commands))
}

// suiteCommands returns the suite as `go test` command lines when every
// pick maps to a package and name (from its manifest entry or its id), else
// the picked ids, one per line, in pick order.
func suiteCommands(rep *analysis.Report) string {
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
