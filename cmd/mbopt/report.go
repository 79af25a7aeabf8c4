package main

import (
	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/report"
)

// reportOptions holds the report command's flag values.
type reportOptions struct {
	analyzeOptions
	out string
}

func newCmdReport(s *streams) *cobra.Command {
	o := &reportOptions{}
	cmd := &cobra.Command{
		Use:   "report --app FILE --micro DIR --out DIR [flags]",
		Short: "Write a Markdown and a self-contained HTML report with plots",
		Example: `  $ mbopt report --app app.pprof --micro profiles/ --out report/
  $ mbopt report --app ingest=ingest.pprof --app query=query.pprof:2 --micro profiles/ --out report/
  $ mbopt report --app app.pprof --micro profiles/ --objective impact --budget 60s --out report/`,
		Args: cli.Args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.out == "" {
				return mbopt.Errorf("--out is required: the directory to write the report into")
			}
			cfg, err := o.config()
			if err != nil {
				return err
			}
			cfg.Certify = true
			rep, err := analyze(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			cli.Skipped(s.Err, rep)
			if err := report.WriteDir(o.out, report.Build(rep), report.DirOptions{}); err != nil {
				return err
			}
			cli.Warnings(s.Err, rep) // after the report, so a write error comes first
			return nil
		},
	}
	addAnalysisFlags(cmd, &o.analyzeOptions)
	flagbind.Bind(cmd.Flags(), &o.out, "out", "", "directory to write the report into (created if missing)", report.FieldOut)
	return cmd
}
