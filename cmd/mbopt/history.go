package main

import (
	"context"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/report/trend"
)

// historyOptions holds the history command's flag values.
type historyOptions struct {
	flow.HistoryConfig               // what the flags set directly
	out                trend.Outputs // --format, --plot, --html, --commit-url, --instability
}

func newCmdHistory(s *streams) *cobra.Command {
	o := &historyOptions{HistoryConfig: flow.HistoryConfig{Detect: detect.DefaultOptions}}
	cmd := &cobra.Command{
		Use:   "history [BENCHMARK...] [flags]",
		Short: "Show benchmarks' changes over commits, with jump and trend detection",
		Example: `  $ mbopt history
  $ mbopt history example.com/tinytsdb/query.BenchmarkQuery --unit sec/op --plot plots/
  $ mbopt history --baseline v1.2.0 --format markdown -o history.md
  $ mbopt history --instability --plot plots/
  $ mbopt history --detector jump,trend,edivisive --html site/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Benchmarks = args
			if err := o.out.Check(); err != nil {
				return err
			}
			if err := o.HistoryConfig.Check(); err != nil {
				return err
			}
			return runHistory(cmd.Context(), s, o)
		},
	}
	cmd.AddCommand(newCmdHistoryRebaseline(s))
	f := cmd.Flags()
	flagbind.Bind(f, &o.History, "history", history.DefaultPath, "the history database mbopt compare writes", flow.FieldHistory)
	flagbind.Bind(f, &o.Baseline, "baseline", "", "the base revision of the series (default: the base of the most stored comparisons)", flow.FieldBaseline)
	flagbind.Bind(f, &o.Unit, "unit", "", "show only this unit, such as sec/op (default: every unit)", flow.FieldUnit)
	flagbind.Bind(f, (*string)(&o.Metric), "metric", "", "show only the unit of this metric of mbopt compare: {time|cpu|instructions} (sec/op, cpu-sec/op, instructions/op)", flow.FieldMetric)
	flagbind.Bind(f, &o.out.Format, "format", "", "output format: {text|json|markdown}", trend.FieldFormat).DefValue = "text"
	flagbind.BindP(f, &o.Output, "output", "o", "", "write the output to this file (atomically) instead of stdout", cli.FieldOutput)
	flagbind.Parsed(f, &o.out.Plot, "plot", "", "write one SVG plot per series (or, with --instability, the instability CDF) into `DIR`", flagbind.NonEmpty("plot", "plots/"), trend.FieldPlot)
	flagbind.Parsed(f, &o.out.HTML, "html", "", "write the history as a static web site into `DIR` (replacing the files of an earlier one, leaving others); prints the text only with --format or -o", flagbind.NonEmpty("html", "site/"), trend.FieldHTML)
	flagbind.Parsed(f, &o.Detect.Detectors, "detector", "jump,trend", "the detectors: a comma-separated `LIST` of {jump|trend|edivisive}", detect.ParseDetectors, detect.FieldDetectors)
	flagbind.Optional(f, &o.out.CommitURL, "commit-url", "", "with --html: the link of a commit, {commit} standing for its hash (default: GitHub's when the origin remote is on github.com)", trend.FieldCommitURL)
	flagbind.Bind(f, &o.out.Instability, "instability", false, "show the A/A instabilities and the initial thresholds calibrated from them", trend.FieldInstability)
	flagbind.Optional(f, &o.InitialThreshold, "initial-threshold", strconv.FormatFloat(detect.DefaultOptions.InitialThreshold, 'g', -1, 64), "initial threshold of every benchmark, replacing the calibrated ones (default: calibrated from A/A comparisons, else 0.06)", flow.FieldInitialThreshold, detect.FieldInitialThreshold)
	flagbind.Bind(f, &o.Detect.Factor, "factor", detect.DefaultOptions.Factor, "dynamic threshold: this factor times the mean of the last CI widths", detect.FieldFactor)
	flagbind.Bind(f, &o.Detect.Widths, "widths", detect.DefaultOptions.Widths, "dynamic threshold: how many earlier CI widths it averages", detect.FieldWidths)
	flagbind.Bind(f, &o.Detect.Floor, "floor", detect.DefaultOptions.Floor, "dynamic threshold: its lower bound", detect.FieldFloor)
	flagbind.Bind(f, &o.Detect.Window, "window", detect.DefaultOptions.Window, "trend detection: the number of earlier commits the current one is compared with", detect.FieldWindow)
	flagbind.Parsed(f, &o.Detect.Fixed, "fixed", "", "fixed-value bounds `LOWER,UPPER` on the change against the baseline, such as -0.2,0.2 (default: none)", detect.ParseBounds, detect.FieldFixed)
	return cmd
}

// runHistory shows the history's trends, or with --instability its A/A
// calibration, in the --format, and writes the --plot figures and the
// --html site.
func runHistory(ctx context.Context, s *streams, o *historyOptions) error {
	cfg, out := o.HistoryConfig, o.out
	cfg.Warn = func(err error) { cli.Warn(s.Err, err) }
	out.Logf = s.logf
	var doc []byte
	if o.out.Instability {
		c, err := flow.Instability(ctx, cfg)
		if err != nil {
			return err
		}
		doc, err = out.Calibration(c.Instabilities, c.Thresholds)
		if err != nil {
			return err
		}
	} else {
		t, err := flow.History(ctx, cfg)
		if err != nil {
			return err
		}
		if out.HTML != "" && out.CommitURL == nil {
			out.Site.CommitURL, _ = gitrev.GitHubCommitURL(ctx, ".") // outside a repository: no links
		}
		if doc, err = out.Trends(t.Set, t.Options, t.Detected); err != nil {
			return err
		}
	}
	if !out.Prints(o.Output) {
		return nil // the site is the output; stderr says where it went
	}
	return mbopt.WriteOutput(s.Out, o.Output, doc)
}

// rebaselineFixed are the compare flags rebaseline sets itself.
var rebaselineFixed = []string{"base", "head", "aa", "app-benchmark", "shard", "trial-shard", "shard-costs", "no-history", "changed-since", "only-affected"}

func newCmdHistoryRebaseline(s *streams) *cobra.Command {
	o := &compareOptions{}
	var to, from string
	cmd := compareCommand(s, o)
	cmd.Use = "rebaseline --to REV [--from REV] [compare flags]"
	cmd.Short = "Move the history's baseline to a new revision, bridging every series across"
	cmd.Example = `  $ mbopt history rebaseline --to v1.3.0
  $ mbopt history rebaseline --from v1.2.0 --to v1.3.0 --trials 5`
	f := cmd.Flags()
	flagbind.Bind(f, &to, "to", "", "the new baseline `REV`", flow.FieldTo)
	flagbind.Bind(f, &from, "from", "", "the old baseline: a stored base's hash or prefix, or a revision (default: the baseline mbopt history shows)", flow.FieldFrom)
	for _, name := range rebaselineFixed {
		must(f.MarkHidden(name))
	}
	cmd.RunE = func(c *cobra.Command, args []string) error {
		o.from, o.to, o.rebaseline = from, to, true
		return runCompare(c, s, o, args)
	}
	return cmd
}
