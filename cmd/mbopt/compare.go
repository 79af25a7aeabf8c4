package main

import (
	"cmp"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/changes"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/report/github"
	"github.com/mbopt/mbopt/report/verdict"
)

// compareOptions holds the compare command's flag values.
type compareOptions struct {
	analyzeOptions
	compare.Options // what the flags set directly
	suiteFile       string
	failOn          compare.FailOn // "": flow.CompareConfig.Resolve's default
	cmpFormat       string
	noCache         bool
	hist            compareHistoryOptions
	shard           string   // --shard as given
	trialShard      string   // --trial-shard as given
	shardCosts      string   // --shard-costs as given
	changedSince    string   // --changed-since
	confirm         bool     // --confirm
	appCmd          string   // --app-cmd
	appImpact       *float64 // --app-impact-threshold, when given
	// analysisFlags are the analysis flags, refused without --app and
	// --micro (analysisAlone).
	analysisFlags *pflag.FlagSet
	// rebaseline compares --from with --to (history rebaseline).
	rebaseline bool
	from, to   string
}

func newCmdCompare(s *streams) *cobra.Command {
	cmd := compareCommand(s, &compareOptions{})
	cmd.AddCommand(newCmdCompareMerge(s))
	return cmd
}

// compareCommand returns the compare command with its flags bound to o;
// history rebaseline reuses it.
func compareCommand(s *streams, o *compareOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "compare [--base REV] [--head REV|worktree] [--suite FILE | --bench PATTERN [PACKAGES]] [flags]",
		Short: "Compare two revisions' benchmarks and gate on regressions",
		Example: `  $ mbopt compare --suite suite.json
  $ mbopt compare --base origin/main --head worktree --bench . ./...
  $ mbopt compare --bench 'Query' --trials 3 --runs 1 --count 5 --benchtime 100ms --format json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(cmd, s, o, args)
		},
	}
	// The analysis flags, but the suite's --budget is --suite-budget here:
	// --budget is the comparison's wall-clock budget.
	af := pflag.NewFlagSet("analysis", pflag.ContinueOnError)
	tmp := &cobra.Command{}
	addAnalysisFlags(tmp, &o.analyzeOptions)
	tmp.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name == "history" {
			return // compare's own --history serves --max-instability too
		}
		if f.Name == "budget" {
			f.Name = "suite-budget"
			f.Usage = "with the analysis flags: bound the suite's summed benchmark running time (mbopt suite's --budget)"
		}
		af.AddFlag(f)
	})
	cmd.Flags().AddFlagSet(af)
	o.analysisFlags = af
	for _, name := range append(suiteIgnores, "weight", "targets", "nodes", "max-profile-bytes", "max-decoded-bytes", "allow-non-cpu", "objective", "costs", "default-cost", "top", "min-gain", "suite-budget", "exclude", "impact", "strict") {
		if cmd.Flags().Lookup(name) != nil {
			must(cmd.Flags().MarkHidden(name))
		}
	}
	d := compare.DefaultSettings()
	f := cmd.Flags()
	flagbind.Name("PACKAGES", engine.FieldPackages)
	flagbind.Name("$GITHUB_STEP_SUMMARY", github.FieldStepSummary)
	flagbind.Bind(f, &o.Base, "base", "", "base revision (default: the merge-base of HEAD with the default branch)", compare.FieldBase)
	flagbind.Bind(f, &o.Head, "head", "", "head revision, or 'worktree' for the uncommitted changes (default: HEAD)", compare.FieldHead)
	flagbind.Bind(f, &o.suiteFile, "suite", "", "the benchmarks to compare: the JSON of mbopt suite --format json", flow.FieldSuiteFile, engine.FieldBenchmarks)
	flagbind.Bind(f, &o.Bench, "bench", "", "the benchmarks to compare: a go test -bench pattern, in PACKAGES (default ./...)", compare.FieldBench)
	flagbind.Bind(f, &o.Out, "out", "", "directory of the raw results base.txt and head.txt (default: a directory of the comparison's own under .mbopt/compare in the module root)", engine.FieldOut)
	flagbind.Parsed(f, &o.failOn, "fail-on", string(compare.FailOnDefiniteRegression), "exit 3 on: {definite-regression|any-regression|app-impact|never} (app-impact: a definite regression whose estimated application impact is at least --app-impact-threshold; needs the analysis flags)", compare.ParseFailOn, compare.FieldFailOn)
	flagbind.Optional(f, &o.appImpact, "app-impact-threshold", strconv.FormatFloat(compare.DefaultAppImpactThreshold, 'g', -1, 64), "with --fail-on app-impact: the estimated application impact (0.001 = 0.1% of the application's CPU time) below which a definite regression passes; with --confirm: the estimate that calls for measuring the application", flow.FieldAppImpactThreshold, compare.FieldSettingsAppImpactThreshold)
	flagbind.Bind(f, &o.Explain, "explain", nil, "find the culprit functions of benchmark `NAME` (full name or id) whatever its verdict; repeatable (the changes get them anyway)", compare.FieldExplain)
	flagbind.Choice(f, &o.cmpFormat, "format", "text", "output format: {"+strings.Join(verdict.Formats, "|")+"} (github: annotations on stdout, the Markdown summary appended to $GITHUB_STEP_SUMMARY)", verdict.Formats...)
	flagbind.BindP(f, &o.output, "output", "o", "", "write the report to this file (atomically) instead of stdout", cli.FieldOutput)
	addScheduleFlags(f, &o.Settings, "trials: passes over every benchmark, each in fresh processes")
	f.BoolVar(&o.Settings.Benchmem, "benchmem", false, "also compare B/op and allocs/op")
	flagbind.Bind(f, &o.Settings.Budget, "budget", 0, "fit the schedule into this wall-clock time, e.g. 10m (fewer runs and counts, never fewer than 2 trials)", compare.FieldSettingsBudget)
	flagbind.Positive(f, &o.Settings.Threshold, "threshold", 0, "relative change below which nothing is a change (0.01 = 1%)", "%s %v: it must be a fraction in (0, 1), such as 0.01 for 1%%; leave it out for the default", compare.FieldSettingsThreshold).DefValue = strconv.FormatFloat(d.Threshold, 'g', -1, 64)
	flagbind.Bind(f, &o.Settings.Confidence, "confidence", d.Confidence, "confidence level of the intervals", compare.FieldSettingsConfidence)
	flagbind.Positive(f, &o.Settings.Resamples, "resamples", d.Resamples, "bootstrap resamples", flagbind.AtLeastOne, compare.FieldSettingsResamples)
	flagbind.Bind(f, &o.Settings.UntilStable, "until-stable", 0, "stop a benchmark once both versions have 2 trials, the measurements a verdict needs, and an interval narrower than this width, e.g. 0.02 (0: off)", compare.FieldSettingsUntilStable)
	flagbind.BindP(f, &o.Settings.Jobs, "jobs", "j", 0, "with --metric instructions: measurements counted at the same time (0: one per CPU); time and cpu keep their interleaved order", compare.FieldSettingsJobs)
	flagbind.Bind(f, &o.Settings.Duet, "duet", compare.DuetSequential, "with --metric time: run base and head {sequential|parallel}: parallel runs them at the same time, each bound to a CPU of its own with GOMAXPROCS=1, so both see the same interference", compare.FieldSettingsDuet)
	flagbind.Positive(f, &o.Settings.FDR, "fdr", d.FDR, "false discovery rate the verdicts control over all the comparison's benchmarks and units (Benjamini–Hochberg; 1: no correction)", "%s %v: it must be in (0, 1], such as 0.05 (1 turns the correction off); 0 would flag nothing", compare.FieldSettingsFDR)
	f.BoolVar(&o.noCache, "no-cache", false, "build every test binary afresh instead of reusing those built from the same commit")
	flagbind.Bind(f, &o.shard, "shard", "", "run only shard `K/N` of the benchmarks, both versions on this machine (K from 0; /N takes K from $JOB_COMPLETION_INDEX); combine with 'mbopt compare merge'", engine.FieldShard)
	flagbind.Bind(f, &o.trialShard, "trial-shard", "", "run every benchmark but only trial shard `K/N` of the --trials (each machine one instance run); combine with 'mbopt compare merge'", engine.FieldTrialShard)
	flagbind.Bind(f, &o.shardCosts, "shard-costs", "", "with --shard: balance the shards by the costs recorded in this `manifest` (a manifest.json or a collection directory; default: by count)", manifest.FieldShardCosts)
	flagbind.Bind(f, &o.changedSince, "changed-since", "", "with the analysis flags: mark the results of benchmarks covering none of the functions changed since `REV` ("+changes.MergeBase+": the --base) as likely noise", changes.FieldChangedSince)
	flagbind.Bind(f, &o.OnlyAffected, "only-affected", false, "with --changed-since: compare only the suite's benchmarks whose covered functions changed", changes.FieldOnlyAffected, compare.FieldOnlyAffected)
	flagbind.Bind(f, &o.confirm, "confirm", false, "with the analysis flags: measure the application workload (--app-benchmark or --app-cmd) on both versions when a change's estimated application impact passes --app-impact-threshold, and report it beside the estimate", flow.FieldConfirm, compare.FieldConfirm)
	flagbind.Bind(f, &o.appCmd, "app-cmd", "", "with --confirm: the application workload, a shell `command` run in each version's module root as mbopt run's --app-cmd ({profile}: a CPU profile it may write); a fixed amount of work", flow.FieldAppCommand, compare.FieldConfirmCommand)
	addCompareHistoryFlags(f, &o.hist)
	return cmd
}

// runCompare runs the comparison and prints the report.
func runCompare(cmd *cobra.Command, s *streams, o *compareOptions, args []string) error {
	cfg := flow.CompareConfig{Options: o.Options, SuiteFile: o.suiteFile, ChangedSince: o.changedSince,
		History: o.hist.path, NoHistory: o.hist.noHistory, AppBenchmark: o.hist.appBench, Output: o.output, FailOn: o.failOn,
		AppImpactThreshold: o.appImpact, Bridge: o.rebaseline, Confirm: o.confirm, AppCommand: o.appCmd}
	cfg.AA, cfg.Packages = o.hist.aa, args
	if o.noCache {
		cfg.CacheDir = "off"
	}
	if err := flow.ResolveShards(&cfg.Options, o.shard, o.trialShard, o.shardCosts, os.Getenv); err != nil {
		return err
	}
	if len(o.App) > 0 || len(o.Micro) > 0 {
		o.history = o.hist.path
		acfg, err := o.config()
		if err != nil {
			return err
		}
		cfg.Analysis = &acfg
	} else if err := analysisAlone(o.analysisFlags); err != nil {
		return err
	}
	if err := cfg.Resolve(); err != nil {
		return err
	}
	if err := verdict.CheckStepSummary(o.cmpFormat, os.Getenv("GITHUB_STEP_SUMMARY")); err != nil {
		return err
	}
	p := compare.NewProgressPrinter(s.Err, cfg.Settings.Metric)
	cfg.Progress = p.Event
	cfg.Logf = func(format string, args ...any) { p.Clear(); fmt.Fprintf(s.Err, "mbopt: "+format+"\n", args...) }
	cfg.Warn = func(err error) { p.Clear(); cli.Warn(s.Err, err) }
	var (
		rep *compare.Report
		err error
	)
	if o.rebaseline {
		rep, err = flow.Rebaseline(cmd.Context(), flow.RebaselineConfig{CompareConfig: cfg, From: o.from, To: o.to})
	} else {
		rep, err = flow.Compare(cmd.Context(), cfg)
	}
	p.Clear()
	return finishCompare(s, o, rep, err, cfg.FailOn)
}

// analysisAlone refuses an analysis flag given without --app and --micro,
// which alone compute the suite the others shape: it would be ignored,
// whatever its value. The first such flag in name order is named.
func analysisAlone(af *pflag.FlagSet) error {
	var given string
	af.VisitAll(func(f *pflag.Flag) {
		if given == "" && f.Changed {
			given = f.Name
		}
	})
	if given == "" {
		return nil
	}
	return mbopt.Errorf("--%s applies with the analysis flags (%s, %s) only: without them there is no analysis for it to set, and it would be ignored; add them, or leave --%s out", given, flow.FieldAnalysisApp, flow.FieldAnalysisMicro, given)
}

// finishCompare writes the report rep of a comparison (nil: nothing compared) and
// applies the gate; err, with rep, is a history that could not be stored,
// which still fails a passing run.
func finishCompare(s *streams, o *compareOptions, rep *compare.Report, err error, failOn compare.FailOn) error {
	if rep == nil {
		return err
	}
	sumErr, werr := writeCompareReport(s, o, rep)
	if werr != nil {
		return werr
	}
	// The gate comes first: a regression is what the run is for; a step
	// summary that could not be appended is reported all the same.
	if gerr := gate(rep, failOn); gerr != nil {
		if sumErr != nil {
			cli.Warn(s.Err, sumErr)
		}
		return gerr
	}
	return cmp.Or(sumErr, err)
}

// gate applies the --fail-on policy to rep: an error with exit status 3
// naming each failing benchmark once, with its units, in the report's order.
func gate(rep *compare.Report, failOn compare.FailOn) error {
	if err := rep.GateError(failOn); err != nil {
		// Worded here: the exit status wraps it, and a wrapped
		// library error is not worded where the command returns.
		return &cli.ExitError{Code: cli.Gate, Err: flagbind.Word(err, nil)}
	}
	return nil
}

// writeCompareReport writes rep in the --format to stdout or -o, and the
// notes the format leaves out on stderr. With github, the annotations go
// there and the Markdown step summary is appended to $GITHUB_STEP_SUMMARY,
// or follows the annotations when that is unset; sumErr is a summary that
// could not be appended, returned after the report is written.
func writeCompareReport(s *streams, o *compareOptions, rep *compare.Report) (sumErr, err error) {
	out, err := verdict.Document(rep, o.cmpFormat, os.Getenv("GITHUB_STEP_SUMMARY"))
	if err != nil && o.cmpFormat != "github" {
		return nil, err
	}
	// With github, an error is the step summary's: the report is written
	// all the same, and the error returned after it.
	sumErr = err
	if err := mbopt.WriteOutput(s.Out, o.output, out); err != nil {
		return nil, err
	}
	if o.cmpFormat == "json" || o.cmpFormat == "github" {
		// text and markdown print the notes themselves.
		for _, n := range rep.Notes {
			fmt.Fprintf(s.Err, "mbopt: %s\n", n)
		}
	}
	return sumErr, nil
}

// compareHistoryOptions are compare's history and calibration flags.
type compareHistoryOptions struct {
	path      string
	noHistory bool
	aa        bool
	// appBench is --app-benchmark.
	appBench string
}

// addCompareHistoryFlags registers compare's history flags on f.
func addCompareHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) {
	flagbind.Bind(f, &o.path, "history", "", "store the report in this history database (default: .mbopt/history.db in the module root; a shard's results are stored by compare merge); mbopt history reads it", flow.FieldHistory)
	flagbind.Bind(f, &o.noHistory, "no-history", false, "do not store the report in the history, nor use its calibrated thresholds", flow.FieldNoHistory)
	flagbind.Bind(f, &o.aa, "aa", false, "A/A calibration: compare the head with itself, store each benchmark's instability, and calibrate the thresholds later comparisons use", compare.FieldAA)
	flagbind.Bind(f, &o.appBench, "app-benchmark", "", appBenchUsage, flow.FieldAppBenchmark, compare.FieldConfirmBenchmark)
}

const appBenchUsage = "the compared benchmark that is the application benchmark: its measurement is stored in the history as the application's, which history --html draws above the detections (default: the --app profile's total)"

// addMergeHistoryFlags registers compare merge's history flags on f.
func addMergeHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) {
	flagbind.Bind(f, &o.path, "history", "", "store the merged report in this history database, as mbopt compare stores its report (default: .mbopt/history.db in the module root)", flow.FieldHistory)
	flagbind.Bind(f, &o.noHistory, "no-history", false, "do not store the merged report in the history, nor use its calibrated thresholds", flow.FieldNoHistory)
	flagbind.Bind(f, &o.appBench, "app-benchmark", "", appBenchUsage, flow.FieldAppBenchmark, compare.FieldConfirmBenchmark)
}
