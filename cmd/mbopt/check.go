package main

import (
	"bytes"
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/flow"
	"github.com/mbopt/mbopt/report"
)

// checkOptions holds the check command's flag values.
type checkOptions struct {
	flow.CheckConfig
	format string
}

func newCmdCheck(s *streams) *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check --suite FILE [DIR] [flags]",
		Short: "Check that a saved suite still fits the repository (drift check for CI)",
		Example: `  $ mbopt check --suite suite.json
  $ mbopt check --suite suite.json --app app.pprof --micro .mbopt/profiles --min-coverage 90
  $ mbopt check --suite suite.json --format json`,
		Args: cli.Args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return runCheck(cmd.Context(), s, o, dir)
		},
	}
	f := cmd.Flags()
	flagbind.Bind(f, &o.SuiteFile, "suite", "", "the saved suite: JSON written by 'mbopt suite --format json'", flow.FieldSuiteFile)
	flagbind.Bind(f, &o.App, "app", nil, "application (reference) CPU profile, for the coverage checks; repeatable, or NAME=FILE", analysis.FieldApp)
	flagbind.Bind(f, &o.Micro, "micro", nil, "benchmark profile directory (with its manifest.json) or files, for the profile and coverage checks; repeatable", analysis.FieldMicro)
	flagbind.Bind(f, &o.Modules, "module", nil, "project module path prefix; repeatable (default: the profiles' manifest, else the module of DIR)", analysis.FieldModules)
	flagbind.Bind(f, &o.Exclude, "exclude", nil, "package pattern that is not project code (as for analyze)", analysis.FieldExclude)
	flagbind.Bind(f, &o.MinCoverage, "min-coverage", 0, "lowest acceptable project-only coverage of the application by the suite, in percent (0: no check)", flow.FieldMinCoverage, analysis.FieldMinCoverage)
	flagbind.Choice(f, &o.format, "format", "text", "output format: {text|json}", "text", "json")
	return cmd
}

// runCheck runs the drift check and prints its findings.
func runCheck(ctx context.Context, s *streams, o *checkOptions, dir string) error {
	cfg := o.CheckConfig
	cfg.Dir = dir
	d, rep, err := flow.Check(ctx, cfg)
	if rep != nil {
		cli.Skipped(s.Err, rep)
	}
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	write := report.WriteDriftText
	if o.format == "json" {
		write = report.WriteDriftJSON
	}
	if err := write(&buf, o.SuiteFile, dir, d); err != nil {
		return err
	}
	if _, err := s.Out.Write(buf.Bytes()); err != nil {
		return err
	}
	if len(d.Findings) > 0 {
		// The findings are printed already: the error says how many.
		return &cli.ExitError{Code: cli.Drift, Err: fmt.Errorf("drift found: %s; the saved suite no longer fits the repository (exit %d)", textutil.Plural(len(d.Findings), "finding"), cli.Drift)}
	}
	return nil
}
