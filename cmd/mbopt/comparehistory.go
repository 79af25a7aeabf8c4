package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/history"
	"github.com/mbopt/mbopt/internal/textutil"
)

// compareHistoryOptions are compare's history and calibration flags.
type compareHistoryOptions struct {
	path      string
	noHistory bool
	aa        bool
}

// addCompareHistoryFlags registers compare's history flags on f.
func addCompareHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) {
	f.StringVar(&o.path, "history", "", "store the report in this history database (default: .mbopt/history.db in the module root); mbopt history reads it")
	f.BoolVar(&o.noHistory, "no-history", false, "do not store the report in the history, nor use its calibrated thresholds")
	f.BoolVar(&o.aa, "aa", false, "A/A calibration: compare the head with itself, store each benchmark's instability, and calibrate the thresholds later comparisons use")
}

// applyHistory uses and updates the history after a comparison: unless
// thresholdGiven, each benchmark's verdict is taken against its threshold
// calibrated from the A/A comparisons stored for this machine and these
// settings (never below --threshold); then the report is stored. After an
// A/A comparison it prints the thresholds calibrated from it on stderr.
func applyHistory(ctx context.Context, stderr io.Writer, o *compareHistoryOptions, rep *compare.Report, thresholdGiven bool) error {
	if o.noHistory {
		return nil
	}
	path := historyPath(ctx, o.path)
	st, err := history.Open(ctx, path)
	if err != nil {
		return badInputf("--history %s: %v", path, err)
	}
	defer st.Close()
	m := history.ThisMachine(rep.GoVersion)
	filter := history.Filter{Machine: &m, SettingsHash: history.SettingsHash(rep.Settings)}
	if !thresholdGiven && !o.aa {
		insts, err := st.Instabilities(ctx, filter)
		if err != nil {
			return err
		}
		cal, err := history.Calibrate(insts, history.DefaultCalibrateOptions)
		if err != nil {
			return err
		}
		if cal.Suite > 0 {
			compare.Reclassify(rep, func(id, unit string) float64 {
				t, _ := cal.For(id, unit)
				return max(t, rep.Settings.Threshold)
			})
			rep.Notes = append(rep.Notes, fmt.Sprintf("thresholds calibrated from A/A comparisons in %s: %s of their own, %s for the others (--threshold sets one for all)",
				path, textutil.Plural(len(cal.Thresholds), "benchmark"), pct(max(cal.Suite, rep.Settings.Threshold))))
		}
	}
	id, err := st.Add(ctx, rep, m)
	if err != nil {
		return err
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("stored as comparison %d in %s", id, path))
	if !o.aa {
		return nil
	}
	insts, err := st.Instabilities(ctx, filter)
	if err != nil {
		return err
	}
	cal, err := history.Calibrate(insts, history.DefaultCalibrateOptions)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "mbopt: A/A calibration from %s on this machine:\n", textutil.Plural(maxRuns(insts), "A/A comparison"))
	for _, r := range rep.Results {
		if r.Status != compare.Compared || r.Estimate == nil {
			continue
		}
		t, _ := cal.For(r.ID, r.Unit)
		fmt.Fprintf(stderr, "  %s %s: instability %s, initial threshold %s\n", r.ID, r.Unit, pct(r.Instability), pct(t))
	}
	fmt.Fprintf(stderr, "mbopt: later comparisons take each benchmark's verdict against its threshold; mbopt history --instability shows them all\n")
	return nil
}

// maxRuns is the largest number of A/A results of one benchmark.
func maxRuns(insts []history.Instability) int {
	n := 0
	for _, in := range insts {
		n = max(n, len(in.Widths))
	}
	return n
}

func pct(r float64) string { return fmt.Sprintf("%.1f%%", 100*r) }
