package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/report"
)

// analyzeOptions holds the analyze command's flag values.
type analyzeOptions struct {
	analysis.Options
	format  string
	explain bool
	output  string
	// maxInstability and history: stability-aware selection.
	maxInstability float64
	history        string
	// historyDir is the directory whose module's default history is
	// read without --history: run's DIR ("": the current directory).
	historyDir string
}

// addAnalysisFlags registers the input flags shared by the commands that
// run an analysis.
func addAnalysisFlags(cmd *cobra.Command, o *analyzeOptions) {
	f := cmd.Flags()
	flagbind.Bind(f, &o.App, "app", nil, "application (reference) CPU profile; repeat to merge several, or name scenarios: NAME=FILE[:WEIGHT]", analysis.FieldApp, flow.FieldAnalysisApp, compare.FieldRelevanceApplication)
	flagbind.Bind(f, &o.Weights, "weight", nil, "weight of scenario NAME in the union suite: NAME=WEIGHT (repeatable; its --app files are then taken as written, even one named FILE:2)", analysis.FieldScenariosWeight)
	flagbind.Bind(f, &o.Micro, "micro", nil, "benchmark profile or directory of them (*.pprof); repeatable", analysis.FieldMicro, flow.FieldAnalysisMicro)
	flagbind.Bind(f, &o.Modules, "module", nil, "project module path prefix; repeatable (default: the module of ./go.mod)", analysis.FieldModules, flow.FieldAnalysisModules)
	flagbind.Bind(f, &o.Exclude, "exclude", nil, "package pattern that is not project code, e.g. the workload driver: ./cmd/... or example.com/m/internal/bench (go package pattern syntax; relative to the module; repeatable)", analysis.FieldExclude)
	flagbind.Bind(f, &o.Targets, "targets", "callable", "functions to recommend: {callable|any} (callable: functions a benchmark can call, closures folded in; any: every function, the paper's Algorithm 3)", analysis.FieldTargets)
	flagbind.Bind(f, &o.Nodes, "nodes", "project", "nodes the minimal suite must keep covered: {project|all}", analysis.FieldNodes)
	flagbind.Bind(f, &o.Impact, "impact", "attributed", "application time that ranks benchmarks, breaks ties and is the impact objective: {attributed|flat} (attributed: charged to the innermost project function; flat: the paper's reference impact)", analysis.FieldImpact)
	flagbind.Bind(f, &o.Recommend, "recommend", 10, "number of functions to recommend (0: none, -1: until full coverage)", analysis.FieldRecommend)
	f.BoolVar(&o.KeepNegligible, "keep-negligible", false, "keep negligible functions (tiny, rarely run: getters, comparators, inlined helpers) in Algorithm 3's order instead of ranking them last; they stay marked")
	flagbind.Bind(f, &o.AppFunctions, "app-cover", nil, "function set of the application from 'mbopt cover-app': functions from coverage, times from --app (repeatable)", analysis.FieldAppFunctions)
	flagbind.Bind(f, &o.Edges, "edges", "sampled", "call edges the recommendations walk: {sampled|static|both} (static: the x/tools VTA call graph of the source between the functions the application ran; both: the union)", analysis.FieldEdges)
	flagbind.Bind(f, &o.StaticDir, "static-dir", "", "the application's module source for --edges static|both (default: the current directory, or run's DIR)", analysis.FieldStaticDir)
	flagbind.Bind(f, &o.Strict, "strict", false, "fail on any unusable benchmark profile instead of skipping it", analysis.FieldStrict, collect.FieldStrict)
	f.BoolVar(&o.AllowNonCPU, "allow-non-cpu", false, "accept non-CPU profiles (weights are then that profile's unit, not seconds)")
	f.Var(flagbind.Size{N: &o.Limits.MaxFileBytes}, "max-profile-bytes", "largest profile file read, e.g. 512MiB (default "+textutil.FormatSize(callgraph.DefaultLimits.MaxFileBytes)+")")
	f.Var(flagbind.Size{N: &o.Limits.MaxDecodedBytes}, "max-decoded-bytes", "largest decompressed profile, e.g. 4GiB (default "+textutil.FormatSize(callgraph.DefaultLimits.MaxDecodedBytes)+")")
	addSelectFlags(f, o)
}

// config maps the flags to the analysis's configuration, requiring --app
// and --micro.
func (o *analyzeOptions) config() (analysis.Config, error) { return o.analysisConfig(true) }

// analysisConfig maps the flags to the analysis's configuration
// (flow.AnalysisConfig), requiring --app and --micro when inputs is set.
func (o *analyzeOptions) analysisConfig(inputs bool) (analysis.Config, error) {
	return flow.AnalysisConfig(context.Background(), o.Options, inputs, o.analysisHistory())
}

// analysisHistory is the history the analysis reads its measurements from.
func (o *analyzeOptions) analysisHistory() flow.AnalysisHistory {
	return flow.AnalysisHistory{Path: o.history, Dir: o.historyDir, MaxInstability: o.maxInstability}
}

func newCmdAnalyze(s *streams) *cobra.Command {
	o := &analyzeOptions{}
	cmd := &cobra.Command{
		Use:   "analyze --app FILE --micro DIR|FILE... [flags]",
		Short: "Coverage, minimal suite and recommendations from existing profiles",
		Example: `  $ mbopt analyze --app app.pprof --micro profiles/
  $ mbopt analyze --app a.pprof --app b.pprof --micro profiles/ --module github.com/me/db --recommend 5
  $ mbopt analyze --app app.pprof --micro profiles/ --format json -o analysis.json
  $ mbopt analyze --app app.pprof --micro profiles/ --nodes all --explain`,
		Args: cli.Args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := o.config()
			if err != nil {
				return err
			}
			if err := mbopt.CheckOutput(cli.FieldOutput, o.output, cfg.Inputs()...); err != nil {
				return err
			}
			rep, err := analyze(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			return printAnalysis(s, o, rep)
		},
	}
	addAnalysisFlags(cmd, o)
	flagbind.Choice(cmd.Flags(), &o.format, "format", "text", "output format: {text|json|github} (github: the suite, plus a Markdown step summary appended to $GITHUB_STEP_SUMMARY)", "text", "json", "github")
	cmd.Flags().BoolVar(&o.explain, "explain", false, "list the functions each pick and recommendation adds, with their application time")
	flagbind.BindP(cmd.Flags(), &o.output, "output", "o", "", "write the result to this file (atomically) instead of stdout", cli.FieldOutput)
	return cmd
}

// printAnalysis prints the skipped benchmark profiles on stderr, the result
// in o's format (text, json or github) on stdout or into o.output, then
// rep's warnings and notes on stderr: after the result, so that when the
// result cannot be written its error follows at most the skipped files.
func printAnalysis(s *streams, o *analyzeOptions, rep *analysis.Report) error {
	cli.Skipped(s.Err, rep)
	if err := writeAnalysis(s, o, rep); err != nil {
		return err
	}
	cli.Warnings(s.Err, rep)
	return nil
}

// writeAnalysis writes rep in o's format. With github (see report.GitHub)
// the selected suite goes to stdout (or -o), and the Markdown step summary
// is delivered to $GITHUB_STEP_SUMMARY (github.StepSummary.Deliver), or,
// when that is unset, written to stdout and the suite only to -o. The
// suite is written first, so a failure to write -o never leaves a summary
// announcing a suite that is not there.
func writeAnalysis(s *streams, o *analyzeOptions, rep *analysis.Report) error {
	out, sum, err := report.Render(rep, o.format, report.TextOptions{Explain: o.explain})
	if err != nil {
		return err
	}
	summary := os.Getenv("GITHUB_STEP_SUMMARY")
	// With github and no $GITHUB_STEP_SUMMARY, the summary takes stdout.
	if sum == nil || summary != "" || o.output != "" {
		if err := mbopt.WriteOutput(s.Out, o.output, out); err != nil || sum == nil {
			return err
		}
	}
	stdout, err := sum.Deliver(summary)
	if err == nil {
		_, err = s.Out.Write(stdout)
	}
	return err
}

// analyze runs the analysis and words its errors and warnings with the
// command's flags (the warnings also for the documents that list them).
func analyze(ctx context.Context, cfg analysis.Config) (*analysis.Report, error) {
	rep, err := analysis.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	cli.WordWarnings(rep)
	return rep, nil
}

// addSelectFlags registers the selection flags on f.
func addSelectFlags(f *pflag.FlagSet, o *analyzeOptions) {
	flagbind.Bind(f, &o.Objective, "objective", "", "what a pick gains: {nodes|impact|cost|caught} (nodes: covered functions, the paper; impact: covered application CPU time; cost: the cheapest suite with the same coverage as nodes; caught: the functions whose +10% slowdown it would report, so the suite keeps what the whole suite catches) (default: caught when --history holds comparisons, whose MDEs it weighs, else nodes)", analysis.FieldSelectObjective)
	flagbind.Bind(f, &o.Budget, "budget", 0, "bound the suite's summed benchmark running time, e.g. 90s (budgeted greedy with the single-best-set safeguard)", analysis.FieldSelectBudget)
	flagbind.Bind(f, &o.CostsFile, "costs", "", "benchmark costs: JSON {\"id\": seconds}, CSV id,seconds, or a collection manifest.json (default: manifest.json in a --micro directory, else each profile's recorded duration)", analysis.FieldSelectCostsFile)
	flagbind.Bind(f, &o.DefaultCost, "default-cost", 0, "cost of a benchmark without a measured cost (default: such a benchmark is an error under --budget and --objective cost)", analysis.FieldSelectDefaultCost)
	flagbind.Bind(f, &o.Top, "top", 0, "stop after N picks (0: no limit)", analysis.FieldSelectTop)
	flagbind.Bind(f, &o.MinGain, "min-gain", 0, "stop when a pick would add fewer than K nodes (the TCC study: 4)", analysis.FieldSelectMinGain)
	flagbind.Bind(f, &o.maxInstability, "max-instability", 0, "leave out of the suite the benchmarks whose A/A instability (the median CI width of their mbopt compare --aa results in --history) exceeds this, e.g. 0.05 (0: keep all)", analysis.FieldSelectExcludeBenchmarks)
	f.StringVar(&o.history, "history", "", "the history database --max-instability, --sensitivity and --objective caught read (default: .mbopt/history.db in the module root, read when it exists, never created; a damaged one there is a warning); its comparisons' minimum detectable effects feed --sensitivity and the caught objective, and when this flag is given make caught the default objective")
	f.BoolVar(&o.Sensitivity, "sensitivity", false, "say what the suite would catch: each project function's smallest slowdown some benchmark would report (MDE / its share of the benchmark; MDEs measured in the history's comparisons, else --mde; the report says which)")
	f.Float64Var(&o.MDE, "mde", 0, "with --sensitivity or --objective caught: the minimum detectable effect of a benchmark the history does not measure, e.g. 0.005 (default: 0.5% for instruction profiles, 5% for CPU profiles)")
	f.BoolVar(&o.Certify, "certify", false, "bound the minimal suite's distance from the smallest possible with the LP relaxation (with --objective cost, also the cheapest suite's cost)")
}
