package main

import (
	"bytes"
	"context"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/compare/mutate"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/report/verdict"
)

func newCmdMutate(s *streams) *cobra.Command {
	var (
		o              mutate.Options
		funcs          []string
		format, output string
		a              analyzeOptions
		top            int
	)
	c := &cobra.Command{
		Use:   "mutate (--func NAME... --slowdown S | --from-sensitivity N --app FILE --micro DIR) [--bench PATTERN] [flags] [PACKAGES]",
		Short: "Slow one function down and see whether the benchmarks catch it",
		Example: `  $ mbopt mutate --func example.com/m/query.parse --slowdown 0.1 --bench .
  $ mbopt mutate --func 'example.com/m/store.(*Tree).Get' --slowdown 0.5 --bench Get --format json -o mutant.json
  $ mbopt mutate --func example.com/m/query.parse --func example.com/m/query.lex --slowdown 0.1 --bench .
  $ mbopt mutate --from-sensitivity 5 --app app.pprof --micro profiles/ --bench .`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Compare.Packages = args
			if err := mbopt.CheckOutput(cli.FieldOutput, output); err != nil {
				return err
			}
			if p := compare.NewProgressPrinter(s.Err, ""); p.Terminal {
				o.Compare.Progress = p.Event
				defer p.Clear()
			}
			if top != 0 {
				return mutateScore(cmd.Context(), s, &a, top, funcs, o, format, output)
			}
			results, err := mutate.RunEach(cmd.Context(), funcs, o, s.logf)
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := verdict.WriteMutations(&b, results, format); err != nil {
				return err
			}
			return mbopt.WriteOutput(s.Out, output, b.Bytes())
		},
	}
	f := c.Flags()
	flagbind.Bind(f, &funcs, "func", nil, "the function to slow down: its full `name` as a profile names it (example.com/m/p.F, example.com/m/p.(*T).M); repeat for several mutants, each compared on its own", mutate.FieldFunc)
	flagbind.Bind(f, &o.Slowdown, "slowdown", 0, "the share of the function's own instructions per call to add (0.1 = +10%)", mutate.FieldSlowdown)
	flagbind.Bind(f, &o.SizeBenchmark, "size-bench", "", "the benchmark (`ID` or a name in the function's package) that measures the function's cost (default: the first of its package that calls it)", mutate.FieldSizeBenchmark)
	flagbind.Bind(f, &o.Compare.Head, "head", "", "the revision to mutate (default HEAD)", compare.FieldHead)
	flagbind.Bind(f, &o.Compare.Bench, "bench", "", "the benchmarks to compare: a go test -bench pattern, in PACKAGES (default ./...)", mutate.FieldCompareBench, compare.FieldBench)
	addScheduleFlags(f, &o.Compare.Settings, "trials: passes over every benchmark, each in fresh processes")
	flagbind.Choice(f, &format, "format", "text", "output format: {text|json}", verdict.MutationFormats...)
	flagbind.BindP(f, &output, "output", "o", "", "write the report to this file (atomically) instead of stdout", cli.FieldOutput)
	flagbind.Bind(f, &top, "from-sensitivity", 0, "check the predicted detectable slowdowns of the `N` project functions with the largest application share (mutants at each prediction and at a tenth of it) and report how many held; takes the analysis flags (--app, --micro, --mde, --history, ...)", mutate.FieldPredictions)
	addAnalysisFlags(c, &a)
	// Only the inputs of the detectable slowdowns are mutate's: the
	// selection's and the recommendations' flags stay accepted, as for
	// suite, but --help does not list them.
	for _, name := range mutateIgnores {
		must(f.MarkHidden(name))
	}
	return c
}

// mutateIgnores are the analysis flags that do not change the detectable
// slowdowns.
var mutateIgnores = []string{"recommend", "keep-negligible", "targets", "edges", "static-dir", "certify", "sensitivity",
	"nodes", "impact", "objective", "budget", "costs", "default-cost", "top", "min-gain", "max-instability"}

// mutateScore runs the analysis that a's flags describe, with the
// detectable slowdowns, and checks the predictions of its n largest
// project functions with mutants as o's comparison says (--from-sensitivity:
// flow.Score).
func mutateScore(ctx context.Context, s *streams, a *analyzeOptions, n int, funcs []string, o mutate.Options, format, output string) error {
	so := mutate.ScoreOptions{Predictions: n, Mutants: o}
	if len(funcs) > 0 {
		so.Mutants.Func = funcs[0]
	}
	rep, sc, err := flow.Score(ctx, flow.ScoreConfig{Options: a.Options, History: a.analysisHistory(), Score: so, Logf: s.logf,
		Analyzed: func(rep *analysis.Report) { cli.WordWarnings(rep); cli.Skipped(s.Err, rep) }})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := verdict.WriteScore(&b, sc, format); err != nil {
		return err
	}
	if err := mbopt.WriteOutput(s.Out, output, b.Bytes()); err != nil {
		return err
	}
	cli.Warnings(s.Err, rep)
	return nil
}
