package flow

import (
	"context"
	"fmt"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/textutil"
)

// historyRecord says how applyHistory records a report, and where it logs.
type historyRecord struct {
	aa, bridge bool
	verdicts   history.Verdicts
	appBench   string
	profileApp *history.Application
	logf       func(string, ...any)
	warn       func(error)
}

func (cfg *CompareConfig) historyRecord() historyRecord {
	hr := historyRecord{aa: cfg.AA, bridge: cfg.Bridge, appBench: cfg.AppBenchmark, logf: cfg.logf(), warn: cfg.Warn}
	if cfg.Settings.Threshold != 0 {
		hr.verdicts = history.AsCompared
	}
	return hr
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
			o.warn(mbopt.Errorf("%s %s: "+format, append([]any{FieldHistory, path}, args...)...))
		}
	}
	if history.IsAA(rep) && !o.aa {
		// A history stores a commit against itself only as a calibration,
		// and calibrating is asked for with AA.
		rep.Notes = append(rep.Notes, fmt.Sprintf("base and head are the same commit: not stored in %s, so it calibrates nothing (--aa stores an A/A calibration)", path))
		return nil
	}
	rec, err := st.Record(ctx, rep, history.RecordOptions{Machine: m, Verdicts: o.verdicts, Bridge: o.bridge, Application: o.profileApp, AppBenchmark: o.appBench})
	if rec.ApplicationErr != nil && o.warn != nil {
		o.warn(mbopt.Errorf("%s: %v", FieldAppBenchmark, strings.TrimPrefix(rec.ApplicationErr.Error(), "history: ")))
	}
	if rec.CalibrationErr != nil {
		warn("reading the A/A calibration: %v; the verdicts use %s %s", rec.CalibrationErr, compare.FieldSettingsThreshold, pct(rep.Settings.Threshold))
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
