package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/changes"
	"github.com/mbopt/mbopt/relevance/flow"
	"github.com/mbopt/mbopt/relevance/suite"
)

// suiteOptions holds the suite command's flag values.
type suiteOptions struct {
	analyzeOptions
	suiteFormat  string
	allowEmpty   bool
	changedSince string
	onlyAffected bool
}

func newCmdSuite(s *streams) *cobra.Command {
	o := &suiteOptions{}
	cmd := &cobra.Command{
		Use:   "suite --app FILE --micro DIR [flags]",
		Short: "Print the optimized suite as go test invocations for CI",
		Example: `  $ mbopt suite --app app.pprof --micro profiles/
  $ mbopt suite --app app.pprof --micro profiles/ --top 8 --format list
  $ mbopt suite --app app.pprof --micro profiles/ --format json -o suite.json
  $ mbopt suite --app app.pprof --micro profiles/ | sh   # run the optimized suite
  $ mbopt suite --app app.pprof --micro profiles/ --changed-since merge-base --only-affected | sh`,
		Args: cli.Args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := changes.CheckSince(o.changedSince, o.onlyAffected); err != nil {
				return err // before the analysis flags, as suite's own
			}
			cfg, err := o.config()
			if err != nil {
				return err
			}
			if err := mbopt.CheckOutput(cli.FieldOutput, o.output, cfg.Inputs()...); err != nil {
				return err
			}
			res, err := flow.Suite(cmd.Context(), flow.SuiteConfig{Config: cfg, ChangedSince: o.changedSince, OnlyAffected: o.onlyAffected, AllowEmpty: o.allowEmpty})
			if res != nil {
				cli.WordWarnings(res.Report)
				cli.Skipped(s.Err, res.Report)
			}
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := suite.Write(&buf, res.Invocations, suite.Format(o.suiteFormat)); err != nil {
				return err
			}
			if err := mbopt.WriteOutput(s.Out, o.output, buf.Bytes()); err != nil {
				return err
			}
			// After the suite, so an error writing it is stderr's first line.
			cli.Warnings(s.Err, res.Report)
			for _, line := range res.Log() {
				fmt.Fprintf(s.Err, "mbopt: %s\n", line)
			}
			return nil
		},
	}
	addAnalysisFlags(cmd, &o.analyzeOptions)
	// The analysis flags that do not change the suite stay accepted, so
	// one set of flags serves analyze, report and suite, but --help does
	// not list them.
	for _, name := range suiteIgnores {
		must(cmd.Flags().MarkHidden(name))
	}
	flagbind.Choice(cmd.Flags(), &o.suiteFormat, "format", "shell", "output format: {"+strings.Join(suite.FormatNames(), "|")+"}", suite.FormatNames()...)
	flagbind.BindP(cmd.Flags(), &o.output, "output", "o", "", "write the suite to this file (atomically) instead of stdout", cli.FieldOutput)
	flagbind.Bind(cmd.Flags(), &o.allowEmpty, "allow-empty", false, "accept an empty suite (print nothing, exit 0) instead of failing", flow.FieldAllowEmpty)
	flagbind.Bind(cmd.Flags(), &o.changedSince, "changed-since", "", "tag the benchmarks whose covered functions changed since `REV` (a revision, or "+changes.MergeBase+": the merge-base of HEAD with the default branch); run inside the git repository", changes.FieldChangedSince)
	flagbind.Bind(cmd.Flags(), &o.onlyAffected, "only-affected", false, "print only the benchmarks --changed-since tags (nothing, successfully, when none is)", changes.FieldOnlyAffected)
	return cmd
}

// suiteIgnores are the analysis flags that do not change the suite:
// recommendations (and their targets) and the optimality certificate are
// not part of it.
var suiteIgnores = []string{"recommend", "keep-negligible", "targets", "edges", "static-dir", "certify", "sensitivity", "mde"}
