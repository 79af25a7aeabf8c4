package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/internal/statedir"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/shard"
	"github.com/mbopt/mbopt/report/verdict"
)

// resolveShards sets opt.Shard, TrialShard and ShardCosts from --shard,
// --trial-shard and --shard-costs. Unlike profile --shard, an unset flag
// does not read $MBOPT_SHARD: a collection's shard index says nothing
// about a comparison's.
func (o *compareOptions) resolveShards(opt *compare.Options, getenv func(string) string) error {
	for _, f := range []struct {
		flag, value string
		spec        *shard.Spec
	}{{"--shard", o.shard, &opt.Shard}, {"--trial-shard", o.trialShard, &opt.TrialShard}} {
		if f.value == "" {
			continue
		}
		spec, err := shard.Resolve(f.value, getenv)
		if err != nil {
			return mbopt.Errorf("%s: %v", f.flag, err)
		}
		*f.spec = spec
	}
	var err error
	opt.ShardCosts, err = manifest.ShardCostsFor(o.shardCosts, opt.Shard)
	return err
}

// compareMergeOptions holds the compare merge command's flag values.
type compareMergeOptions struct {
	out, failOn, format, output string
	hist                        compareHistoryOptions
}

func newCmdCompareMerge(s *streams) *cobra.Command {
	o := &compareMergeOptions{}
	cmd := &cobra.Command{
		Use:     "merge DIR... [--out DIR] [flags]",
		Short:   "Combine the outputs of sharded comparisons and judge them together",
		Example: `  $ mbopt compare merge shard-0 shard-1 shard-2 --out merged --format github`,
		Args:    cli.Args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkHistoryFlags(cmd.Flags(), &o.hist); err != nil {
				return err
			}
			return runCompareMerge(cmd.Context(), s, o, args)
		},
	}
	f := cmd.Flags()
	cli.Bind(f, &o.out, "out", statedir.Name+"/compare", "directory of the merged raw results base.txt and head.txt", engine.FieldOut)
	f.StringVar(&o.failOn, "fail-on", string(compare.FailOnDefiniteRegression), "exit 3 on: {definite-regression|any-regression|never}")
	f.StringVar(&o.format, "format", "text", "output format: {"+strings.Join(verdict.Formats, "|")+"}")
	cli.BindP(f, &o.output, "output", "o", "", "write the report to this file (atomically) instead of stdout", cli.FieldOutput)
	addMergeHistoryFlags(f, &o.hist)
	return cmd
}

func runCompareMerge(ctx context.Context, s *streams, o *compareMergeOptions, dirs []string) error {
	failOn, err := checkReportFlags(o.failOn, o.format)
	if err != nil {
		return err
	}
	if failOn == compare.FailOnAppImpact {
		return mbopt.Errorf("--fail-on %s: a merge finds no culprit functions, so no regression has an application impact and each would fail; use definite-regression, or compare --fail-on %s on one machine", failOn, failOn)
	}
	rep, err := flow.Merge(ctx, flow.MergeConfig{Dirs: dirs, Out: o.out, History: o.hist.path, NoHistory: o.hist.noHistory, AppBenchmark: o.hist.appBench, Output: o.output,
		Logf: func(format string, args ...any) { fmt.Fprintf(s.Err, "mbopt: "+format+"\n", args...) },
		Warn: func(err error) { cli.Warn(s.Err, err) }})
	co := &compareOptions{cmpFormat: o.format}
	co.output = o.output
	return finishCompare(s, co, rep, err, failOn)
}
