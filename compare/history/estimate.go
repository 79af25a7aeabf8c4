package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"strings"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
)

// MaxCulpritNames is how many of a result's culprit functions (the
// largest changes first, compare.Result.Culprits' order) the history
// keeps by name ([Point].Culprits).
const MaxCulpritNames = 3

// schemaV6 adds what compare estimated of each result's effect on the
// application (compare.Result's culprit.AppImpact: the estimate, its
// interval and basis, the shares and likely_no_app_impact), the names of
// its top culprit functions (a JSON array), and the application workload
// measured on both versions of a comparison (compare.Report.AppMeasured).
// Results stored before have none of them: NULL, not estimated.
var schemaV6 = []string{
	`ALTER TABLE results ADD COLUMN app_impact REAL`,
	`ALTER TABLE results ADD COLUMN app_impact_low REAL`,
	`ALTER TABLE results ADD COLUMN app_impact_high REAL`,
	`ALTER TABLE results ADD COLUMN app_impact_basis TEXT`,
	`ALTER TABLE results ADD COLUMN app_relevant_share REAL`,
	`ALTER TABLE results ADD COLUMN app_benchmark_share REAL`,
	`ALTER TABLE results ADD COLUMN app_unattributed_share REAL`,
	`ALTER TABLE results ADD COLUMN likely_no_app_impact INTEGER`,
	`ALTER TABLE results ADD COLUMN culprits TEXT`,
	`CREATE TABLE app_measured (
		comparison_id INTEGER PRIMARY KEY REFERENCES comparisons(id) ON DELETE CASCADE,
		source TEXT NOT NULL, unit TEXT NOT NULL,
		change REAL NOT NULL, ci_low REAL NOT NULL, ci_high REAL NOT NULL,
		base_median REAL NOT NULL, head_median REAL NOT NULL,
		base_n INTEGER NOT NULL, head_n INTEGER NOT NULL, p_value REAL
	)`,
}

// addEstimates stores, with the results of comparison id already
// written, each result's estimated application impact and top culprit
// names, and r.AppMeasured.
func addEstimates(ctx context.Context, tx *sql.Tx, id int64, r *compare.Report) error {
	stmt, err := tx.PrepareContext(ctx, `UPDATE results SET
		app_impact = ?, app_impact_low = ?, app_impact_high = ?, app_impact_basis = ?,
		app_relevant_share = ?, app_benchmark_share = ?, app_unattributed_share = ?,
		likely_no_app_impact = ?, culprits = ?
		WHERE comparison_id = ? AND bench_id = ? AND unit = ?`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, x := range r.Results {
		names := culpritNames(x.Culprits)
		if x.AppImpact == nil && len(names) == 0 {
			continue
		}
		var est, lo, hi, basis, rel, bench, unattr, no any
		if a := x.AppImpact; a != nil {
			est, lo, hi, basis = a.Estimate, a.Low, a.High, a.Basis
			rel, bench, unattr, no = a.RelevantShare, a.BenchmarkShare, a.Unattributed, a.NoImpact
		}
		var cs any
		if len(names) > 0 {
			js, err := json.Marshal(names)
			if err != nil {
				return err
			}
			cs = string(js)
		}
		if _, err := stmt.ExecContext(ctx, est, lo, hi, basis, rel, bench, unattr, no, cs, id, x.ID, x.Unit); err != nil {
			return err
		}
	}
	if m := r.AppMeasured; m != nil {
		e := m.Estimate
		if _, err := tx.ExecContext(ctx, `INSERT INTO app_measured (comparison_id, source, unit, change, ci_low, ci_high, base_median, head_median, base_n, head_n, p_value)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, m.Source, m.Unit, e.Change, e.CI.Low, e.CI.High, e.BaseMedian, e.HeadMedian, e.BaseN, e.HeadN, e.P); err != nil {
			return err
		}
	}
	return nil
}

// culpritNames returns the names of the first MaxCulpritNames culprits.
func culpritNames(cs []culprit.Culprit) []string {
	var names []string
	for _, c := range cs[:min(len(cs), MaxCulpritNames)] {
		names = append(names, c.Function)
	}
	return names
}

// storedImpact is the stored estimate of one result, nil when it has
// none (stored before schema 6, or not estimated) or a damaged one (a
// number not finite, an unknown basis).
func storedImpact(est, lo, hi sql.NullFloat64, basis sql.NullString, rel, bench, unattr sql.NullFloat64, no sql.NullBool) *culprit.AppImpact {
	if !est.Valid || !lo.Valid || !hi.Valid {
		return nil
	}
	for _, x := range []float64{est.Float64, lo.Float64, hi.Float64} {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > MaxChange {
			return nil
		}
	}
	switch basis.String {
	case culprit.BasisFunctions, culprit.BasisBenchmark, culprit.BasisNone:
	default:
		return nil
	}
	return &culprit.AppImpact{Estimate: est.Float64, Low: lo.Float64, High: hi.Float64, Basis: basis.String,
		RelevantShare: finiteOr0(rel), BenchmarkShare: finiteOr0(bench), Unattributed: finiteOr0(unattr), NoImpact: no.Bool}
}

// storedCulprits reads the stored JSON array of culprit names; nil when
// none or unreadable.
func storedCulprits(js sql.NullString) []string {
	if !js.Valid || js.String == "" {
		return nil
	}
	var names []string
	if json.Unmarshal([]byte(js.String), &names) != nil {
		return nil
	}
	return names
}

// A Confirmation is the application workload measured on both versions
// of one stored comparison (compare.Report.AppMeasured): the measured
// change of the application, which confirms or refutes the results'
// estimated application impact.
type Confirmation struct {
	// Head is the comparison's head.
	Head compare.Revision `json:"head"`
	// Comparison is the stored comparison's id.
	Comparison int64 `json:"comparison"`
	// Base is the commit the comparison measured against: the Set's
	// baseline, or another that a bridge connects to it (the change is as
	// measured against Base, not carried over).
	Base string `json:"base"`
	// AppMeasurement is what was measured.
	compare.AppMeasurement
}

// Application returns c as an application's value ([FromConfirmation]):
// the head's median with the change's interval scaled by the base's
// median.
func (c Confirmation) Application() Application {
	e := c.Estimate
	a := Application{Name: strings.TrimSpace(c.Source), Unit: c.Unit, Source: FromConfirmation, Value: e.HeadMedian, Base: e.BaseMedian}
	if e.BaseMedian > 0 {
		a.CI = benchstats.Interval{Low: e.BaseMedian * (1 + e.CI.Low), High: e.BaseMedian * (1 + e.CI.High)}
	}
	return a
}

// confirmations reads the applications measured on both versions of the
// comparisons of the heads against any of bases, as [Store.applications]
// chooses them: per head the latest, one against the baseline itself
// first; A/A, dirty and bridging comparisons aside. They are in ancestry
// order ([SortPoints]); a damaged row (a number not finite, no positive
// medians) is left out.
func (s *Store) confirmations(ctx context.Context, baseline string, bases []any) ([]Confirmation, error) {
	args := append(append([]any{}, bases...), baseline)
	rows, err := s.db.QueryContext(ctx, `
		SELECT c.id, c.base_commit, c.head_spec, c.head_commit, c.head_time, c.head_subject, c.head_depth,
			m.source, m.unit, m.change, m.ci_low, m.ci_high, m.base_median, m.head_median, m.base_n, m.head_n, m.p_value
		FROM app_measured m JOIN comparisons c ON m.comparison_id = c.id
		WHERE c.aa = 0 AND c.head_dirty = 0 AND c.bridge = 0
			AND c.base_commit IN (?`+strings.Repeat(", ?", len(bases)-1)+`)
		ORDER BY c.head_commit, c.base_commit = ? DESC, c.recorded DESC, c.id DESC`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Confirmation
	seen := map[string]bool{}
	for rows.Next() {
		var c Confirmation
		var t int64
		var p sql.NullFloat64
		e := &c.Estimate
		if err := rows.Scan(&c.Comparison, &c.Base, &c.Head.Spec, &c.Head.Commit, &t, &c.Head.Subject, &c.Head.Depth,
			&c.Source, &c.Unit, &e.Change, &e.CI.Low, &e.CI.High, &e.BaseMedian, &e.HeadMedian, &e.BaseN, &e.HeadN, &p); err != nil {
			return nil, err
		}
		if seen[c.Head.Commit] || c.Head.Commit == baseline {
			continue
		}
		seen[c.Head.Commit] = true
		c.Head.Time = time.Unix(0, t).UTC()
		e.P = finiteOr0(p)
		if !usableMeasurement(*e) {
			continue // a damaged row draws nothing
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	pts := make([]Point, len(out))
	at := map[string]Confirmation{}
	for i, c := range out {
		pts[i] = Point{Head: c.Head, Comparison: c.Comparison}
		at[c.Head.Commit] = c
	}
	SortPoints(pts)
	for i, p := range pts {
		out[i] = at[p.Head.Commit]
	}
	return out, nil
}

// usableMeasurement reports whether e is a measurement a chart can draw:
// finite numbers, positive medians, an interval in order.
func usableMeasurement(e benchstats.Estimate) bool {
	for _, x := range []float64{e.Change, e.CI.Low, e.CI.High, e.BaseMedian, e.HeadMedian} {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e300 {
			return false
		}
	}
	return e.BaseMedian > 0 && e.HeadMedian > 0 && e.CI.Low <= e.CI.High && e.Change > -1
}
