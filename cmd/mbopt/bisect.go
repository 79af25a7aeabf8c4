package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/bisect"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/report/verdict"
)

func newCmdBisect(s *streams) *cobra.Command {
	var (
		o      bisect.Options
		format string
	)
	o.Settings = compare.DefaultSettings()
	c := &cobra.Command{
		Use:   "bisect --bench NAME --good REV --bad REV [flags] [PACKAGE...]",
		Short: "Find the commit that changed one benchmark",
		Example: `  $ mbopt bisect --bench BenchmarkQuery --good v1.2.0 --bad main
  $ mbopt bisect --bench BenchmarkQuery/sum --good HEAD~8 --bad HEAD --format json
  $ mbopt bisect --bench BenchmarkQuery --good v1.2.0 --bad main --metric instructions ./query`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Packages = args
			// On a terminal, each step's comparison draws compare's
			// progress bar and each decided step a line above it; elsewhere
			// (CI, a pipe) the log on standard output is the only record.
			if p := compare.NewProgressPrinter(s.Err, o.Settings.RunMetric()); p.Terminal {
				o.CompareProgress = p.Event
				o.Progress = func(st bisect.Step) {
					p.Clear()
					fmt.Fprintf(s.Err, "mbopt: bisect: %.12s %s %+.1f%%\n", st.Commit, st.Decision, 100*st.Change)
				}
				defer p.Clear()
			}
			res, err := bisect.Run(cmd.Context(), o)
			if res != nil && (err == nil || errors.Is(err, bisect.ErrNotLocated)) {
				if werr := verdict.WriteBisect(s.Out, res, format); werr != nil {
					return werr
				}
			}
			if errors.Is(err, bisect.ErrNotLocated) {
				return &cli.ExitError{Code: cli.NotLocated, Err: err}
			}
			return err
		},
	}
	f := c.Flags()
	flagbind.Bind(f, &o.Bench, "bench", "", "the benchmark's full name as go test prints it", bisect.FieldBench)
	flagbind.Bind(f, &o.Good, "good", "", "a revision before the change", bisect.FieldGood)
	flagbind.Bind(f, &o.Bad, "bad", "", "a revision after the change, first-parent descendant of --good", bisect.FieldBad)
	flagbind.Choice(f, &format, "format", "text", "output format: {text|json}", verdict.BisectFormats...)
	addScheduleFlags(f, &o.Settings, "trials of each measurement (doubled for each repetition)")
	flagbind.Bind(f, &o.Settings.Threshold, "threshold", compare.DefaultThreshold, "the smallest relative change to locate: the first step's interval must lie beyond it (0.01 = 1%)", compare.FieldSettingsThreshold)
	flagbind.Bind(f, &o.Explain, "explain", false, "compare the first bad commit with the last good one once more, with the benchmark's culprit functions", compare.FieldExplain)
	flagbind.Positive(f, &o.MaxRepetitions, "max-repetitions", 3, "measurements of an unknown commit before it is skipped", flagbind.AtLeastOne, bisect.FieldMaxRepetitions)
	return c
}
