package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/mbopt/mbopt/collect"
	"github.com/mbopt/mbopt/report"
	"github.com/mbopt/mbopt/suite"
)

// writeGitHub implements analyze --format github: the selected suite goes
// to stdout (or -o), as `go test` commands when a collection manifest in a
// --micro directory names each benchmark's package, else as benchmark ids,
// one per line in pick order; a Markdown step summary is appended to the
// file named by $GITHUB_STEP_SUMMARY, or, when that is unset, written to
// stdout and the suite only to -o.
func writeGitHub(s *streams, o *analyzeOptions, d *report.Document) error {
	commands := suiteCommands(o.micro, d)
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

// suiteCommands returns the suite as `go test` command lines when a
// manifest.json in a --micro directory maps every pick to its package and
// name, else the picked ids, one per line.
func suiteCommands(micro []string, d *report.Document) string {
	byID := map[string]suite.Benchmark{}
	for _, dir := range micro {
		m, err := collect.Load(dir)
		if err != nil {
			continue
		}
		for _, e := range m.Benchmarks {
			id := strings.TrimSuffix(e.Profile, ".pprof")
			byID[id] = suite.Benchmark{Package: e.Package, Dir: e.Dir, Name: e.Name}
		}
	}
	var sel []suite.Benchmark
	var ids strings.Builder
	for _, p := range d.MinimalSuite {
		fmt.Fprintln(&ids, p.ID)
		if b, ok := byID[p.ID]; ok {
			sel = append(sel, b)
		}
	}
	if len(sel) == len(d.MinimalSuite) && len(sel) > 0 {
		if invs, err := suite.Plan(sel, suite.Options{}); err == nil {
			var b bytes.Buffer
			if suite.Write(&b, invs, suite.FormatShell) == nil {
				return b.String()
			}
		}
	}
	return ids.String()
}
