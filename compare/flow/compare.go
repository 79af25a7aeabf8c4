package flow

import (
	"context"
	"io"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/changes"
	"github.com/mbopt/mbopt/relevance/suite"
)

// A CompareConfig is a comparison as mbopt compare runs it ([Compare]):
// compare.Options, with the benchmarks taken from one source, judged
// against the thresholds calibrated in a history and stored there. Errors
// about a field are *mbopt.Error values naming it, as "Config.SuiteFile",
// "Config.Bench" or "Config.Settings.Trials".
type CompareConfig struct {
	// Options configure the comparison. At most one of SuiteFile,
	// Analysis, Preset and Bench chooses the benchmarks; none compares
	// every benchmark of Packages (or ./...). Analysis with Bench: the
	// pattern chooses, and the analysis gives each result its impact and
	// application impact.
	compare.Options
	// SuiteFile is a suite's JSON (suite.WriteJSON): compare its
	// benchmarks.
	SuiteFile string
	// Analysis, when not nil, runs an analysis and compares the suite it
	// selects (see [CompareSuite]); its recommendations and certificate
	// are not computed.
	Analysis *analysis.Config
	// Preset are the benchmarks to compare when nothing else chooses
	// them (a rebaseline: those stored against the old baseline).
	Preset []compare.Benchmark
	// ChangedSince, with Analysis, marks the results of the benchmarks
	// that cover none of the functions changed since this revision
	// (changes.MergeBase: Options.Base, or the default base) as likely
	// noise; with Options.OnlyAffected, only the others are compared.
	ChangedSince string
	// History is the history database the verdicts are judged against
	// and the report stored in; "" means history.PathIn of the current
	// directory. A shard's comparison is stored by [Merge].
	History string
	// NoHistory leaves the history out: the verdicts keep
	// Settings.Threshold and nothing is stored.
	NoHistory bool
	// Bridge stores the comparison as a bridge from its base to its head
	// (history.RecordOptions).
	Bridge bool
	// AppBenchmark is the compared benchmark whose measurement the
	// history stores as the application's (history.RecordOptions); ""
	// means the total of Analysis's reference profile, if any.
	AppBenchmark string
	// Confirm measures the application workload on both versions when
	// some result's estimated application impact passes
	// Settings.AppImpactThreshold (compare.Options.Confirm): the
	// AppBenchmark, or AppCommand. It needs Analysis.
	Confirm bool
	// AppCommand is the application workload Confirm measures when no
	// AppBenchmark is given: a shell command, as mbopt run's --app-cmd
	// (compare.Confirm.Command).
	AppCommand string
	// FailOn is the gate the caller applies to the report
	// (compare.Report.GateError); "" is left to [CompareConfig.Resolve].
	FailOn compare.FailOn
	// AppImpactThreshold, when set, is Settings.AppImpactThreshold, which
	// applies to FailOn compare.FailOnAppImpact and to Confirm only; nil
	// is compare.DefaultAppImpactThreshold there (see
	// [CompareConfig.Resolve]).
	AppImpactThreshold *float64
	// Output is the file the caller will write the report to, checked
	// with mbopt.CheckOutput before anything runs: not one of the
	// comparison's inputs, not a directory, in a directory that exists.
	Output string
	// Logf, when set, gets a line of the comparison's log: what changed,
	// the A/A calibration.
	Logf func(format string, args ...any)
	// Warn, when set, gets the warnings, as *mbopt.Error values naming the
	// setting concerned (History, AppBenchmark): a calibration that could
	// not be read, a report that could not be stored.
	Warn func(error)
}

// The fields of a [CompareConfig] (and a MergeConfig, which shares their
// names) that input errors name, besides those of compare.Options.
const (
	FieldSuiteFile          mbopt.Field = "SuiteFile"
	FieldHistory            mbopt.Field = "History"
	FieldNoHistory          mbopt.Field = "NoHistory"
	FieldOutput             mbopt.Field = "Output"
	FieldAnalysisApp        mbopt.Field = "Analysis.App"
	FieldAnalysisMicro      mbopt.Field = "Analysis.Micro"
	FieldAnalysisModules    mbopt.Field = "Analysis.Modules"
	FieldAppBenchmark       mbopt.Field = "AppBenchmark"
	FieldAppCommand         mbopt.Field = "AppCommand"
	FieldConfirm            mbopt.Field = "Confirm"
	FieldAppImpactThreshold mbopt.Field = "AppImpactThreshold"
)

// Compare runs the comparison cfg describes, the way mbopt compare does:
// it checks the configuration and opens the history before any benchmark
// runs, chooses the benchmarks (a suite file, an analysis's suite with what
// changed, a preset or Bench), runs [compare.Run], retakes the verdicts
// against the thresholds calibrated from the history's A/A comparisons and
// stores the report there ([history.Store.Record]), adding notes that say
// so. It returns nil and no error when OnlyAffected leaves nothing to
// compare. When the report could not be stored, it returns the report and
// an error saying so, naming the history database (not an input error: the
// comparison itself is done).
func Compare(ctx context.Context, cfg CompareConfig) (*compare.Report, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	store := !cfg.NoHistory && !cfg.Shard.Enabled() && !cfg.TrialShard.Enabled()
	histPath, st, err := openOutputHistory(ctx, store, cfg.History, cfg.Output, []string{cfg.SuiteFile})
	if err != nil {
		return nil, err
	}
	if st != nil {
		defer st.Close()
	}
	opt, hr := cfg.Options, cfg.historyRecord()
	switch {
	case len(cfg.Preset) > 0:
		opt.Benchmarks = cfg.Preset
	case cfg.SuiteFile != "":
		if opt.Benchmarks, err = readSuiteFile(cfg.SuiteFile); err != nil {
			return nil, err
		}
	case cfg.Analysis != nil:
		if done, err := cfg.analysisSuite(ctx, &opt, &hr); done || err != nil {
			return nil, err
		}
	}
	rep, err := compare.Run(ctx, opt)
	if err != nil {
		return nil, err
	}
	return rep, applyHistory(ctx, hr, st, histPath, rep, history.ThisMachine(rep.GoVersion))
}

// Check checks what [Compare] can before anything is opened or run, as
// Compare does first: it settles the settings ([CompareConfig.Resolve]),
// then checks how they combine (one source of benchmarks, ChangedSince
// with the analysis, no history for a shard).
func (cfg *CompareConfig) Check() error {
	if err := checkNoHistory(cfg.NoHistory, cfg.History); err != nil {
		return err
	}
	if err := cfg.Resolve(); err != nil {
		return err
	}
	if cfg.AA && cfg.NoHistory && cfg.Base == "" {
		return mbopt.Errorf("%s stores the instabilities in the history: leave %s unset", compare.FieldAA, FieldNoHistory)
	}
	sources := 0
	// With Bench, the analysis only weighs the results by the
	// application (their impact, the culprits' application impact).
	for _, set := range []bool{cfg.SuiteFile != "", cfg.Analysis != nil && cfg.Bench == "", cfg.Bench != "", len(cfg.Preset) > 0} {
		if set {
			sources++
		}
	}
	if sources > 1 {
		return mbopt.Errorf("%s, the analysis flags (%s, %s) and %s each choose the benchmarks; give one of them (the analysis flags with %s weigh the pattern's benchmarks by the application)", FieldSuiteFile, FieldAnalysisApp, FieldAnalysisMicro, compare.FieldBench, compare.FieldBench)
	}
	if err := changes.CheckSince(cfg.ChangedSince, cfg.OnlyAffected); err != nil {
		return err
	}
	if cfg.ChangedSince != "" && cfg.Analysis == nil {
		return mbopt.Errorf("%s needs the analysis flags (%s, %s): they say which functions each benchmark covers", changes.FieldChangedSince, FieldAnalysisApp, FieldAnalysisMicro)
	}
	if cfg.ChangedSince != "" && cfg.Bench != "" {
		return mbopt.Errorf("%s marks the benchmarks of the analysis's suite; with %s the pattern chooses them: leave one out", changes.FieldChangedSince, compare.FieldBench)
	}
	if len(cfg.Packages) > 0 && cfg.Bench == "" {
		return mbopt.Errorf("package patterns %s need %s PATTERN (or use %s)", strings.Join(cfg.Packages, " "), compare.FieldBench, FieldSuiteFile)
	}
	if (cfg.Shard.Enabled() || cfg.TrialShard.Enabled()) && cfg.History != "" {
		return mbopt.Errorf("%s: a shard's results are only part of the comparison; compare merge judges them together and stores them in its %s", FieldHistory, FieldHistory)
	}
	return nil
}

// analysisSuite sets the benchmarks of opt to the suite of cfg.Analysis,
// marking those the change since cfg.ChangedSince affects; done reports
// that OnlyAffected left nothing to compare. The analysis's reference
// profile is the application's value hr stores.
func (cfg *CompareConfig) analysisSuite(ctx context.Context, opt *compare.Options, hr *historyRecord) (done bool, err error) {
	logf := hr.logf
	acfg := *cfg.Analysis
	acfg.Recommend, acfg.Certify = 0, false
	if err := mbopt.CheckOutput(FieldOutput, cfg.Output, acfg.Inputs()...); err != nil {
		return false, err
	}
	rep, err := analysis.Run(ctx, acfg)
	if err != nil {
		return false, err
	}
	var ch *changes.Result
	if since := cfg.ChangedSince; since != "" {
		if since == changes.MergeBase && cfg.Base != "" {
			since = cfg.Base
		}
		head := cfg.Head
		switch head {
		case "":
			head = "HEAD"
		case compare.Worktree:
			head = "" // changes.Diff's work tree
		}
		if ch, err = changes.Since(ctx, since, head); err != nil {
			return false, err
		}
	}
	hr.profileApp = ReferenceApplication(rep)
	if cfg.Bench != "" {
		// The pattern chooses the benchmarks; the analysis weighs them.
		opt.Relevance.Impacts, opt.Relevance.Application = analysis.Impacts(rep), analysis.Application(rep)
		return false, nil
	}
	sel, hits, err := CompareSuite(rep, ch, opt)
	if err != nil {
		return false, err
	}
	if len(sel) == 0 {
		return false, mbopt.Errorf("%s: the optimized suite is empty, so there is nothing to compare; check %s, or choose benchmarks with %s", strings.Join(acfg.Micro, ", "), FieldAnalysisModules, compare.FieldBench)
	}
	if ch == nil {
		return false, nil
	}
	for _, line := range ch.Summary(len(hits), len(sel)) {
		logf("%s", line)
	}
	if opt.OnlyAffected && len(hits) == 0 {
		logf("the change touches none of the functions the suite's %s cover: nothing to compare", textutil.Plural(len(opt.Relevance.Affected), "benchmark"))
		return true, nil
	}
	return false, nil
}

// readSuiteFile reads the benchmarks of a suite's JSON.
func readSuiteFile(path string) ([]compare.Benchmark, error) {
	f, _, err := regfile.Open(path)
	if err != nil {
		return nil, mbopt.Errorf("%s %s: %v; write it with mbopt suite --format json -o FILE", FieldSuiteFile, path, err)
	}
	defer f.Close()
	invs, err := suite.ReadJSON(io.LimitReader(f, 64<<20))
	if err != nil {
		return nil, mbopt.Errorf("%s %s: %v; write it with mbopt suite --format json -o FILE", FieldSuiteFile, path, err)
	}
	sel := suite.Benchmarks(invs)
	if len(sel) == 0 {
		return nil, mbopt.Errorf("%s %s: the suite is empty, so there is nothing to compare; write it with mbopt suite --format json -o FILE", FieldSuiteFile, path)
	}
	var bs []compare.Benchmark
	for _, b := range sel {
		bs = append(bs, compare.Benchmark{Package: b.Package, Name: b.Name})
	}
	return bs, nil
}
