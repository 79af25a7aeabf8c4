package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/history"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/internal/textutil"
)

// compareHistoryOptions are compare's history and calibration flags.
type compareHistoryOptions struct {
	path      string
	noHistory bool
	aa        bool
	// bridge stores the comparison as a bridge (history rebaseline).
	bridge bool
	// appBench is --app-benchmark; profileApp the reference profile's
	// total, with the analysis flags.
	appBench   string
	profileApp *history.Application
}

// addCompareHistoryFlags registers compare's history flags on f.
func addCompareHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) {
	f.StringVar(&o.path, "history", "", "store the report in this history database (default: .mbopt/history.db in the module root; a shard's results are stored by compare merge); mbopt history reads it")
	f.BoolVar(&o.noHistory, "no-history", false, "do not store the report in the history, nor use its calibrated thresholds")
	f.BoolVar(&o.aa, "aa", false, "A/A calibration: compare the head with itself, store each benchmark's instability, and calibrate the thresholds later comparisons use")
	f.StringVar(&o.appBench, "app-benchmark", "", appBenchUsage)
}

const appBenchUsage = "the compared benchmark that is the application benchmark: its measurement is stored in the history as the application's, which history --html draws above the detections (default: the --app profile's total)"

// addMergeHistoryFlags registers compare merge's history flags on f.
func addMergeHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) {
	f.StringVar(&o.path, "history", "", "store the merged report in this history database, as mbopt compare stores its report (default: .mbopt/history.db in the module root)")
	f.BoolVar(&o.noHistory, "no-history", false, "do not store the merged report in the history, nor use its calibrated thresholds")
	f.StringVar(&o.appBench, "app-benchmark", "", appBenchUsage)
}

// checkHistoryFlags refuses --no-history with --history.
func checkHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) error {
	if o.noHistory && f.Changed("history") {
		return input.Errorf("--no-history and --history %s contradict each other: give one", o.path)
	}
	return nil
}

// historyPath returns --history (given), or the history database of the
// module in the current directory (history.PathIn).
func historyPath(given string) string {
	if given != "" {
		return given
	}
	return history.PathIn("")
}

// openCompareHistory opens the history at path that compare will store
// into (creating and migrating it) and checks that it can write there,
// before any benchmark runs: a read-only, newer or foreign history, or a
// path that cannot hold one, is bad input found in a second, not after the
// whole schedule. An empty path (--no-history) returns nil.
func openCompareHistory(ctx context.Context, path string) (*history.Store, error) {
	if path == "" {
		return nil, nil
	}
	st, err := history.Open(ctx, path)
	if err != nil {
		return nil, input.Errorf("--history %s: %v", path, strings.TrimPrefix(err.Error(), "history: "+path+": "))
	}
	if err := st.CheckWritable(ctx); err != nil {
		st.Close()
		return nil, input.Errorf("--history %s: %v; give a writable --history file, or --no-history", path, strings.TrimPrefix(err.Error(), "history: "+path+": "))
	}
	return st, nil
}

// applyHistory records rep, compared on the machine m, in the history st
// (from openCompareHistory; nil with --no-history) with
// history.Store.Record: unless thresholdGiven, its verdicts are first
// retaken against the thresholds calibrated from the A/A comparisons stored.
// After an A/A comparison it prints the thresholds calibrated from it on
// stderr.
//
// The comparison is done by then, so a failure here loses no report: a
// calibration that cannot be read is a warning (the verdicts keep
// --threshold), and a report that cannot be stored is a warning and the
// returned error, which the caller reports after printing the report and
// applying the gate.
func applyHistory(ctx context.Context, stderr io.Writer, o *compareHistoryOptions, st *history.Store, path string, rep *compare.Report, m history.Machine, thresholdGiven bool) error {
	if st == nil {
		return nil
	}
	if history.IsAA(rep) && !o.aa {
		// A history stores a commit against itself only as a calibration,
		// and calibrating is asked for with --aa.
		rep.Notes = append(rep.Notes, fmt.Sprintf("base and head are the same commit: not stored in %s, so it calibrates nothing (--aa stores an A/A calibration)", path))
		return nil
	}
	rec, err := st.Record(ctx, rep, history.RecordOptions{Machine: m, KeepVerdicts: thresholdGiven, Bridge: o.bridge, Application: o.profileApp, AppBenchmark: o.appBench})
	if rec.ApplicationErr != nil {
		cli.Warnf(stderr, "--app-benchmark: %v", strings.TrimPrefix(rec.ApplicationErr.Error(), "history: "))
	}
	if rec.CalibrationErr != nil {
		cli.Warnf(stderr, "--history %s: reading the A/A calibration: %v; the verdicts use --threshold %s", path, rec.CalibrationErr, pct(rep.Settings.Threshold))
	}
	if cal := rec.Calibration; cal != nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("thresholds calibrated from A/A comparisons in %s: %s of their own, %s for the others (--threshold sets one for all)",
			path, textutil.Plural(len(cal.Thresholds), "benchmark"), pct(max(cal.Suite, rep.Settings.Threshold))))
	}
	if err != nil {
		cli.Warnf(stderr, "--history %s: the comparison was not stored: %v", path, err)
		return fmt.Errorf("--history %s: the report was printed but not stored in the history: %w", path, err)
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
		cli.Warnf(stderr, "--history %s: reading back the A/A calibration: %v", path, rec.AAErr)
		return nil
	}
	fmt.Fprintf(stderr, "mbopt: A/A calibration from %s on this machine:\n", textutil.Plural(rec.AARuns, "A/A comparison"))
	for _, r := range rep.Results {
		if r.Status == compare.Compared && r.Estimate != nil {
			t, _ := rec.AA.For(r.ID, r.Unit)
			fmt.Fprintf(stderr, "  %s %s: instability %s, initial threshold %s\n", r.ID, r.Unit, pct(r.Instability), pct(t))
		}
	}
	fmt.Fprintf(stderr, "mbopt: later comparisons take each benchmark's verdict against its threshold; mbopt history --instability shows them all\n")
	return nil
}

func pct(r float64) string { return fmt.Sprintf("%.1f%%", 100*r) }
