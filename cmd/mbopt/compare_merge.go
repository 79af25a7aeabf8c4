package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/internal/statedir"
	"github.com/mbopt/mbopt/report/verdict"
)

// compareMergeOptions holds the compare merge command's flag values.
type compareMergeOptions struct {
	out, format, output string
	failOn              compare.FailOn
	appImpact           *float64 // --app-impact-threshold, when given
	hist                compareHistoryOptions
}

func newCmdCompareMerge(s *streams) *cobra.Command {
	o := &compareMergeOptions{}
	cmd := &cobra.Command{
		Use:     "merge DIR... [--out DIR] [flags]",
		Short:   "Combine the outputs of sharded comparisons and judge them together",
		Example: `  $ mbopt compare merge shard-0 shard-1 shard-2 --out merged --format github`,
		Args:    cli.Args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompareMerge(cmd.Context(), s, o, args)
		},
	}
	f := cmd.Flags()
	flagbind.Bind(f, &o.out, "out", statedir.Name+"/compare", "directory of the merged raw results base.txt and head.txt", engine.FieldOut)
	o.failOn = compare.FailOnDefiniteRegression
	flagbind.Parsed(f, &o.failOn, "fail-on", string(o.failOn), "exit 3 on: {definite-regression|any-regression|app-impact|never} (app-impact: a definite regression whose estimated application impact, as its shard found it, is at least --app-impact-threshold; needs every shard run with the analysis flags)", compare.ParseFailOn, compare.FieldFailOn)
	flagbind.Optional(f, &o.appImpact, "app-impact-threshold", strconv.FormatFloat(compare.DefaultAppImpactThreshold, 'g', -1, 64), "with --fail-on app-impact: the estimated application impact (0.001 = 0.1% of the application's CPU time) below which a definite regression passes", flow.FieldAppImpactThreshold, compare.FieldSettingsAppImpactThreshold)
	flagbind.Choice(f, &o.format, "format", "text", "output format: {"+strings.Join(verdict.Formats, "|")+"}", verdict.Formats...)
	flagbind.BindP(f, &o.output, "output", "o", "", "write the report to this file (atomically) instead of stdout", cli.FieldOutput)
	addMergeHistoryFlags(f, &o.hist)
	return cmd
}

func runCompareMerge(ctx context.Context, s *streams, o *compareMergeOptions, dirs []string) error {
	rep, err := flow.Merge(ctx, flow.MergeConfig{Dirs: dirs, Out: o.out, History: o.hist.path, NoHistory: o.hist.noHistory, AppBenchmark: o.hist.appBench, Output: o.output, FailOn: o.failOn, AppImpactThreshold: o.appImpact,
		Logf: s.logf,
		Warn: func(err error) { cli.Warn(s.Err, err) }})
	co := &compareOptions{cmpFormat: o.format}
	co.output = o.output
	return finishCompare(s, co, rep, err, o.failOn)
}
