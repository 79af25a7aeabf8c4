package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mbopt/mbopt/compare"
)

// This file adds a comparison report to the history, in one transaction.

// testHookMidAdd, when set, runs inside Add's transaction after half of
// the results are written; tests kill the process there.
var testHookMidAdd func()

// Add stores r, run on m, in one transaction and returns the
// comparison's id. Results of every status are stored; those without an
// estimate have no change or interval. With each compared result it keeps
// what the comparison judged it by, so that a later calibration never
// rewrites it: the verdict, the threshold the verdict was taken against
// (Result.Threshold, else the settings'), the benchmark's reference
// impact when the comparison had one, and its estimated application
// impact (compare.Result's AppImpact) and top culprit functions when it
// was explained; with the comparison, the application measured on both
// versions (compare.Report.AppMeasured). Add waits for other writers (up to
// a busy timeout of 30s).
func (s *Store) Add(ctx context.Context, r *compare.Report, m Machine) (int64, error) {
	return s.store(ctx, r, m, false, nil)
}

// AddBridge stores r like [Store.Add], marked as a bridging comparison:
// its base is an old baseline and its head the new one (mbopt history
// rebaseline), and [Store.Series] carries a series across it.
func (s *Store) AddBridge(ctx context.Context, r *compare.Report, m Machine) (int64, error) {
	if r != nil && (IsAA(r) || r.Head.Dirty) {
		return 0, errors.New("history: AddBridge: a bridge goes from one baseline commit to another")
	}
	return s.store(ctx, r, m, true, nil)
}

// store stores r as Add and AddBridge do, and app, when not nil, as the
// application's measurement in that comparison.
func (s *Store) store(ctx context.Context, r *compare.Report, m Machine, bridge bool, app *Application) (int64, error) {
	if r == nil {
		return 0, errors.New("history: Add: nil report")
	}
	if app != nil {
		if err := app.Check(); err != nil {
			return 0, err
		}
	}
	if s.readOnly {
		return 0, fmt.Errorf("history: %s: opened read-only", s.path)
	}
	settings, err := json.Marshal(r.Settings)
	if err != nil {
		return 0, fmt.Errorf("history: Add: %w", err)
	}
	// A transaction that failed as busy wrote nothing: try it again.
	return retryBusy(ctx, func() (int64, error) { return s.add(ctx, r, m, settings, bridge, app) })
}

func (s *Store) add(ctx context.Context, r *compare.Report, m Machine, settings []byte, bridge bool, app *Application) (int64, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("history: %s: %w", s.path, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO comparisons (
		module,
		base_spec, base_commit, base_time, base_dirty, base_subject,
		head_spec, head_commit, head_time, head_dirty, head_subject,
		goos, goarch, cpu, go_version, settings, settings_hash, aa, wall_ns, recorded,
		base_depth, head_depth, bridge
	) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Module,
		r.Base.Spec, r.Base.Commit, r.Base.Time.UnixNano(), r.Base.Dirty, r.Base.Subject,
		r.Head.Spec, r.Head.Commit, r.Head.Time.UnixNano(), r.Head.Dirty, r.Head.Subject,
		m.GOOS, m.GOARCH, m.CPU, m.GoVersion, string(settings), SettingsHash(r.Settings), IsAA(r),
		int64(r.Wall), time.Now().UnixNano(),
		r.Base.Depth, r.Head.Depth, bridge)
	if err != nil {
		return 0, fmt.Errorf("history: %s: storing the comparison: %w", s.path, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO results (
		comparison_id, bench_id, package, name, unit, status, side, error,
		change, ci_low, ci_high, base_median, head_median, base_n, head_n,
		verdict, p_value, trials, threshold, impact_attributed, impact_flat
	) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	for i, x := range r.Results {
		if i == len(r.Results)/2 && testHookMidAdd != nil {
			testHookMidAdd()
		}
		var change, low, high, bm, hm, bn, hn any
		if e := x.Estimate; e != nil {
			change, low, high, bm, hm, bn, hn = e.Change, e.CI.Low, e.CI.High, e.BaseMedian, e.HeadMedian, e.BaseN, e.HeadN
		}
		var p, threshold, attributed, flat any
		if x.Status == compare.Compared {
			p = x.PValue
			threshold = r.Settings.Threshold
			if x.Threshold > 0 {
				threshold = x.Threshold
			}
		}
		if im := x.Impact; im != nil {
			attributed, flat = im.Attributed, im.Flat
		}
		if _, err := stmt.ExecContext(ctx, id, x.ID, x.Package, x.Name, x.Unit, string(x.Status), x.Side, x.Error,
			change, low, high, bm, hm, bn, hn, x.Verdict.String(), p, x.Trials, threshold, attributed, flat); err != nil {
			return 0, fmt.Errorf("history: %s: storing %s (%s): %w", s.path, x.ID, x.Unit, err)
		}
	}
	if err := addEstimates(ctx, tx, id, r); err != nil {
		return 0, fmt.Errorf("history: %s: storing the application impact estimates: %w", s.path, err)
	}
	if app != nil {
		if err := addApplication(ctx, tx, id, app); err != nil {
			return 0, fmt.Errorf("history: %s: storing the application %s: %w", s.path, app.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("history: %s: %w", s.path, err)
	}
	return id, nil
}

// IsAA reports whether r is an A/A comparison: the same commit on both
// sides, equally dirty.
func IsAA(r *compare.Report) bool {
	return r.Base.Commit == r.Head.Commit && r.Base.Dirty == r.Head.Dirty
}
