package main

import (
	"os"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/report"
)

// writeGitHub implements analyze --format github (see report.GitHub): the
// selected suite goes to stdout (or -o), and the Markdown step summary is
// appended to the file named by $GITHUB_STEP_SUMMARY, or, when that is
// unset, written to stdout and the suite only to -o. The suite is written
// first, so a failure to write -o never leaves a summary announcing a suite
// that is not there.
func writeGitHub(s *streams, o *analyzeOptions, rep *analysis.Report, d *report.Document) error {
	g, err := report.GitHub(rep, d)
	if err != nil {
		return err
	}
	summary := os.Getenv("GITHUB_STEP_SUMMARY")
	if summary == "" {
		if o.output != "" {
			if err := cli.WriteFile(o.output, []byte(g.Suite)); err != nil {
				return err
			}
		}
		_, err := s.Out.Write(g.Markdown)
		return err
	}
	if err := cli.Output(s.Out, o.output, []byte(g.Suite)); err != nil {
		return err
	}
	if err := g.Append(summary); err != nil {
		return input.Errorf("$GITHUB_STEP_SUMMARY: %v; point GITHUB_STEP_SUMMARY at a writable file, or unset it to get the summary on stdout", err)
	}
	return nil
}
