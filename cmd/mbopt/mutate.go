package main

import (
	"bytes"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/mutate"
	"github.com/mbopt/mbopt/internal/progress"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/report/verdict"
)

func newCmdMutate(s *streams) *cobra.Command {
	var (
		o              mutate.Options
		format, output string
	)
	d := compare.DefaultSettings()
	o.Compare.Settings = d
	c := &cobra.Command{
		Use:   "mutate --func NAME --slowdown S [--bench PATTERN] [flags] [PACKAGES]",
		Short: "Slow one function down and see whether the benchmarks catch it",
		Example: `  $ mbopt mutate --func example.com/m/query.parse --slowdown 0.1 --bench .
  $ mbopt mutate --func 'example.com/m/store.(*Tree).Get' --slowdown 0.5 --bench Get --format json -o mutant.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Compare.Packages = args
			if m := string(o.Compare.Settings.Metric); m != "" {
				if err := cli.Enum("--metric", m, "time", "cpu", "instructions"); err != nil {
					return err
				}
			}
			if err := mbopt.CheckOutput(cli.FieldOutput, output); err != nil {
				return err
			}
			if terminal, width := progress.IsTerminal(s.Err); terminal {
				p := &compare.ProgressPrinter{W: s.Err, Terminal: true, Width: width, Now: time.Now}
				o.Compare.Progress = p.Event
				defer p.Clear()
			}
			fmt.Fprintf(s.Err, "mbopt: mutate: sizing %s's slowdown under Valgrind; the comparison measures %s\n", o.Func, o.Compare.Settings.RunMetric().Choice())
			res, err := mutate.Run(cmd.Context(), o)
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := verdict.WriteMutation(&b, res, format); err != nil {
				return err
			}
			return cli.Output(s.Out, output, b.Bytes())
		},
	}
	f := c.Flags()
	cli.Bind(f, &o.Func, "func", "", "the function to slow down: its full `name` as a profile names it (example.com/m/p.F, example.com/m/p.(*T).M)", mutate.FieldFunc)
	cli.Bind(f, &o.Slowdown, "slowdown", 0, "the share of the function's own instructions per call to add (0.1 = +10%)", mutate.FieldSlowdown)
	cli.Bind(f, &o.SizeBenchmark, "size-bench", "", "the benchmark (`ID` or a name in the function's package) that measures the function's cost (default: the first of its package that calls it)", mutate.FieldSizeBenchmark)
	cli.Bind(f, &o.Compare.Head, "head", "", "the revision to mutate (default HEAD)", compare.FieldHead)
	cli.Bind(f, &o.Compare.Bench, "bench", "", "the benchmarks to compare: a go test -bench pattern, in PACKAGES (default ./...)", mutate.FieldCompareBench, compare.FieldBench)
	cli.Bind(f, (*string)(&o.Compare.Settings.Metric), "metric", "", "what to measure per operation: {time|cpu|instructions}, as in mbopt compare", compare.FieldSettingsMetric).DefValue = measure.DefaultMetricRule
	cli.Positive(f, &o.Compare.Settings.Trials, "trials", d.Trials, "trials, as in mbopt compare", cli.AtLeastOne, compare.FieldSettingsTrials)
	cli.Positive(f, &o.Compare.Settings.Runs, "runs", d.Runs, "runs per trial, as in mbopt compare", cli.AtLeastOne, compare.FieldSettingsRuns)
	f.Uint64Var(&o.Compare.Settings.Seed, "seed", d.Seed, "seed of the schedule and the bootstrap")
	cli.Choice(f, &format, "format", "text", "output format: {text|json}", verdict.MutationFormats...)
	cli.BindP(f, &output, "output", "o", "", "write the report to this file (atomically) instead of stdout", cli.FieldOutput)
	return c
}
