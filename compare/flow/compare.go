package flow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	// KeepVerdicts keeps the verdicts against Settings.Threshold, which was
	// chosen for this comparison, instead of the calibrated thresholds.
	KeepVerdicts bool
	// FailOn is the gate the caller applies to the report
	// (compare.Report.GateError); "" is left to [CompareConfig.Resolve].
	FailOn compare.FailOn
	// Chosen reports whether the caller chose the setting named f (for
	// mbopt compare, whether its flag was given) rather than leaving its
	// default; nil means the settings that are not zero were chosen. See
	// [CompareConfig.Resolve].
	Chosen func(f mbopt.Field) bool
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

// The settings of a CompareConfig or MergeConfig named in errors, besides
// those of compare.Options and analysis.Config.
const (
	suiteFileField mbopt.Field = "SuiteFile"
	historyField   mbopt.Field = "History"
	noHistoryField mbopt.Field = "NoHistory"
	outputField    mbopt.Field = "Output"
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
	if err := cfg.check(); err != nil {
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

// check checks what Compare can before anything is opened or run.
func (cfg *CompareConfig) check() error {
	if err := cfg.Resolve(); err != nil {
		return err
	}
	if cfg.AA && cfg.NoHistory && cfg.Base == "" {
		return mbopt.Errorf("%s stores the instabilities in the history: leave %s unset", mbopt.Field("AA"), noHistoryField)
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
		return mbopt.Errorf("%s, the analysis flags (%s, %s) and %s each choose the benchmarks; give one of them (the analysis flags with %s weigh the pattern's benchmarks by the application)", suiteFileField, mbopt.Field("Analysis.App"), mbopt.Field("Analysis.Micro"), mbopt.Field("Bench"), mbopt.Field("Bench"))
	}
	if err := changes.CheckSince(cfg.ChangedSince, cfg.OnlyAffected); err != nil {
		return err
	}
	if cfg.ChangedSince != "" && cfg.Analysis == nil {
		return mbopt.Errorf("%s needs the analysis flags (%s, %s): they say which functions each benchmark covers", changes.ChangedSince, mbopt.Field("Analysis.App"), mbopt.Field("Analysis.Micro"))
	}
	if cfg.ChangedSince != "" && cfg.Bench != "" {
		return mbopt.Errorf("%s marks the benchmarks of the analysis's suite; with %s the pattern chooses them: leave one out", changes.ChangedSince, mbopt.Field("Bench"))
	}
	if len(cfg.Packages) > 0 && cfg.Bench == "" {
		return mbopt.Errorf("package patterns %s need %s PATTERN (or use %s)", strings.Join(cfg.Packages, " "), mbopt.Field("Bench"), suiteFileField)
	}
	if (cfg.Shard.Enabled() || cfg.TrialShard.Enabled()) && cfg.History != "" {
		return mbopt.Errorf("%s: a shard's results are only part of the comparison; compare merge judges them together and stores them in its %s", historyField, historyField)
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
	if err := mbopt.CheckOutput(outputField, cfg.Output, acfg.Inputs()...); err != nil {
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
		opt.Impacts, opt.Application = analysis.Impacts(rep), analysis.Application(rep)
		return false, nil
	}
	sel, hits, err := CompareSuite(rep, ch, opt)
	if err != nil {
		return false, err
	}
	if len(sel) == 0 {
		return false, mbopt.Errorf("%s: the optimized suite is empty, so there is nothing to compare; check %s, or choose benchmarks with %s", strings.Join(acfg.Micro, ", "), mbopt.Field("Analysis.Modules"), mbopt.Field("Bench"))
	}
	if ch == nil {
		return false, nil
	}
	for _, line := range ch.Summary(len(hits), len(sel)) {
		logf("%s", line)
	}
	if opt.OnlyAffected && len(hits) == 0 {
		logf("the change touches none of the functions the suite's %s cover: nothing to compare", textutil.Plural(len(opt.Affected), "benchmark"))
		return true, nil
	}
	return false, nil
}

// A MergeConfig is a merge of sharded comparisons as mbopt compare merge
// runs it ([Merge]).
type MergeConfig struct {
	// Dirs are the shards' output directories.
	Dirs []string
	// Out is the directory of the merged raw results.
	Out string
	// History is as for a CompareConfig.
	History string
	// NoHistory is as for a CompareConfig.
	NoHistory bool
	// AppBenchmark is as for a CompareConfig.
	AppBenchmark string
	// Output is as for a CompareConfig.
	Output string
	// Logf is as for a CompareConfig.
	Logf func(format string, args ...any)
	// Warn is as for a CompareConfig.
	Warn func(error)
}

// Merge combines the outputs of sharded comparisons with
// compare.Merge and stores the merged report in the history as [Compare]
// stores a comparison; a report that could not be stored is returned with
// an error saying so.
func Merge(ctx context.Context, cfg MergeConfig) (*compare.Report, error) {
	histPath, st, err := openOutputHistory(ctx, !cfg.NoHistory, cfg.History, cfg.Output, shardFiles(cfg.Dirs))
	if err != nil {
		return nil, err
	}
	if st != nil {
		defer st.Close()
	}
	rep, err := compare.Merge(cfg.Dirs, cfg.Out, nil)
	if err != nil {
		if errors.Is(err, compare.ErrMerge) {
			return nil, mbopt.Wrap(err)
		}
		return nil, err
	}
	if st == nil {
		return rep, nil
	}
	raw, err := os.ReadFile(filepath.Join(cfg.Out, compare.HeadFile))
	if err != nil {
		return nil, err
	}
	hr := historyRecord{appBench: cfg.AppBenchmark, logf: logf(cfg.Logf), warn: cfg.Warn}
	return rep, applyHistory(ctx, hr, st, histPath, rep, history.MachineOfRaw(raw, rep.GoVersion))
}

// shardFiles lists the shard directories and the files in them: the
// inputs of a merge.
func shardFiles(dirs []string) []string {
	var files []string
	for _, d := range dirs {
		files = append(files, d)
		entries, err := os.ReadDir(d)
		if err != nil {
			continue // compare.Merge reports it
		}
		for _, e := range entries {
			files = append(files, filepath.Join(d, e.Name()))
		}
	}
	return files
}

// historyPath returns the history database at path, or by default that of
// the module in the current directory (history.PathIn).
func historyPath(path string) string {
	if path != "" {
		return path
	}
	return history.PathIn("")
}

// readSuiteFile reads the benchmarks of a suite's JSON.
func readSuiteFile(path string) ([]compare.Benchmark, error) {
	f, _, err := regfile.Open(path)
	if err != nil {
		return nil, mbopt.Errorf("%s %s: %v; write it with mbopt suite --format json -o FILE", suiteFileField, path, err)
	}
	defer f.Close()
	invs, err := suite.ReadJSON(io.LimitReader(f, 64<<20))
	if err != nil {
		return nil, mbopt.Errorf("%s %s: %v; write it with mbopt suite --format json -o FILE", suiteFileField, path, err)
	}
	sel := suite.Benchmarks(invs)
	if len(sel) == 0 {
		return nil, mbopt.Errorf("%s %s: the suite is empty, so there is nothing to compare; write it with mbopt suite --format json -o FILE", suiteFileField, path)
	}
	var bs []compare.Benchmark
	for _, b := range sel {
		bs = append(bs, compare.Benchmark{Package: b.Package, Name: b.Name})
	}
	return bs, nil
}

// openOutputHistory opens the history a comparison is stored in, hist
// or the default (none when store is false), after checking that output,
// the -o file, is none of inputs and none of the history's files. It
// returns the history's path (empty when none) and the open history, which
// the caller closes.
func openOutputHistory(ctx context.Context, store bool, hist, output string, inputs []string) (string, *history.Store, error) {
	histPath := ""
	if store {
		histPath = historyPath(hist)
		inputs = append(inputs, history.Files(histPath)...)
	}
	if err := mbopt.CheckOutput(outputField, output, inputs...); err != nil {
		return "", nil, err
	}
	st, err := openCompareHistory(ctx, histPath)
	return histPath, st, err
}

// openCompareHistory opens the history at path that a comparison will be
// stored in (creating and migrating it) and checks that it can write there,
// before any benchmark runs: a read-only, newer or foreign history, or a
// path that cannot hold one, is bad input found in a second, not after the
// whole schedule. An empty path (no history) returns nil.
func openCompareHistory(ctx context.Context, path string) (*history.Store, error) {
	if path == "" {
		return nil, nil
	}
	st, err := history.Open(ctx, path)
	if err != nil {
		return nil, historyError(path, err)
	}
	if err := st.CheckWritable(ctx); err != nil {
		st.Close()
		return nil, mbopt.Errorf("%s %s: %v; give a writable %s file, or %s", historyField, path, historyReason(path, err), historyField, noHistoryField)
	}
	return st, nil
}

// historyRecord says how applyHistory records a report, and where it logs.
type historyRecord struct {
	aa, bridge, keepVerdicts bool
	appBench                 string
	profileApp               *history.Application
	logf                     func(string, ...any)
	warn                     func(error)
}

func (cfg *CompareConfig) historyRecord() historyRecord {
	return historyRecord{aa: cfg.AA, bridge: cfg.Bridge, keepVerdicts: cfg.KeepVerdicts, appBench: cfg.AppBenchmark, logf: cfg.logf(), warn: cfg.Warn}
}

func (cfg *CompareConfig) logf() func(string, ...any) { return logf(cfg.Logf) }

// logf returns f, or a function that logs nothing.
func logf(f func(string, ...any)) func(string, ...any) {
	if f == nil {
		return func(string, ...any) {}
	}
	return f
}

// applyHistory records rep, compared on the machine m, in the history st
// (nil: no history) with history.Store.Record. After an A/A comparison it
// logs the thresholds calibrated from it.
//
// The comparison is done by then, so a failure here loses no report: a
// calibration that cannot be read is a warning (the verdicts keep the
// threshold), and a report that cannot be stored is a warning and the
// returned error.
func applyHistory(ctx context.Context, o historyRecord, st *history.Store, path string, rep *compare.Report, m history.Machine) error {
	if st == nil {
		return nil
	}
	warn := func(format string, args ...any) {
		if o.warn != nil {
			o.warn(mbopt.Errorf("%s %s: "+format, append([]any{historyField, path}, args...)...))
		}
	}
	if history.IsAA(rep) && !o.aa {
		// A history stores a commit against itself only as a calibration,
		// and calibrating is asked for with AA.
		rep.Notes = append(rep.Notes, fmt.Sprintf("base and head are the same commit: not stored in %s, so it calibrates nothing (--aa stores an A/A calibration)", path))
		return nil
	}
	rec, err := st.Record(ctx, rep, history.RecordOptions{Machine: m, KeepVerdicts: o.keepVerdicts, Bridge: o.bridge, Application: o.profileApp, AppBenchmark: o.appBench})
	if rec.ApplicationErr != nil && o.warn != nil {
		o.warn(mbopt.Errorf("%s: %v", mbopt.Field("AppBenchmark"), strings.TrimPrefix(rec.ApplicationErr.Error(), "history: ")))
	}
	if rec.CalibrationErr != nil {
		warn("reading the A/A calibration: %v; the verdicts use %s %s", rec.CalibrationErr, mbopt.Field("Settings.Threshold"), pct(rep.Settings.Threshold))
	}
	if cal := rec.Calibration; cal != nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("thresholds calibrated from A/A comparisons in %s: %s of their own, %s for the others (--threshold sets one for all)",
			path, textutil.Plural(len(cal.Thresholds), "benchmark"), pct(max(cal.Suite, rep.Settings.Threshold))))
	}
	if err != nil {
		warn("the comparison was not stored: %v", err)
		return fmt.Errorf("%s: the report was printed but not stored in the history: %w", path, err)
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("stored as comparison %d in %s", rec.ID, path))
	if o.bridge {
		rep.Notes = append(rep.Notes, fmt.Sprintf("it bridges the baseline %s to %s: mbopt history carries every series across it; compare against %s from now on (--base %s)",
			short(rep.Base.Commit), short(rep.Head.Commit), short(rep.Head.Commit), rep.Head.Commit))
	}
	switch {
	case !o.aa:
		return nil
	case rec.AAErr != nil:
		warn("reading back the A/A calibration: %v", rec.AAErr)
		return nil
	}
	lines := []string{fmt.Sprintf("A/A calibration from %s on this machine:", textutil.Plural(rec.AARuns, "A/A comparison"))}
	for _, r := range rep.Results {
		if r.Status == compare.Compared && r.Estimate != nil {
			t, _ := rec.AA.For(r.ID, r.Unit)
			lines = append(lines, fmt.Sprintf("  %s %s: instability %s, initial threshold %s", r.ID, r.Unit, pct(r.Instability), pct(t)))
		}
	}
	o.logf("%s", strings.Join(lines, "\n"))
	o.logf("later comparisons take each benchmark's verdict against its threshold; mbopt history --instability shows them all")
	return nil
}

func pct(r float64) string { return fmt.Sprintf("%.1f%%", 100*r) }

// short returns a commit's first 10 characters.
func short(commit string) string { return commit[:min(10, len(commit))] }
