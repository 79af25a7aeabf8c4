package history

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/benchname"
)

// This file reads the stored results of a series: the query Store.Series
// runs, the benchmarks it keeps, and each row's point.

// querySeriesRows queries the compared results with a change, of unit
// q.Unit when it is not empty, of the comparisons (neither A/A nor of a
// dirty head) against a baseline of paths, in the order Store.Series
// groups them: by benchmark, unit, machine, settings and head, a head's
// comparison against base (the Set's baseline) first, then the latest.
// It returns the rows and the baselines it queried.
func (s *Store) querySeriesRows(ctx context.Context, q Query, base string, paths map[string]bridgePath) (*sql.Rows, []any, error) {
	bases := []any{}
	for c := range paths {
		bases = append(bases, c)
	}
	args := append(append([]any{string(compare.Compared), q.Unit, q.Unit}, bases...), base)
	rows, err := s.db.QueryContext(ctx, `
		SELECT r.bench_id, r.package, r.name, r.unit, c.module,
			c.goos, c.goarch, c.cpu, c.go_version, c.settings_hash, c.settings,
			c.head_spec, c.head_commit, c.head_time, c.head_subject, c.head_depth,
			r.change, r.ci_low, r.ci_high, r.verdict, c.id,
			r.base_median, r.head_median, r.threshold, r.impact_attributed, r.impact_flat,
			c.base_commit,
			r.app_impact, r.app_impact_low, r.app_impact_high, r.app_impact_basis,
			r.app_relevant_share, r.app_benchmark_share, r.app_unattributed_share,
			r.likely_no_app_impact, r.culprits
		FROM results r JOIN comparisons c ON r.comparison_id = c.id
		WHERE c.aa = 0 AND c.head_dirty = 0
			AND r.status = ? AND r.change IS NOT NULL
			AND (? = '' OR r.unit = ?)
			AND c.base_commit IN (?`+strings.Repeat(", ?", len(bases)-1)+`)
		ORDER BY r.bench_id, r.unit, c.goos, c.goarch, c.cpu, c.go_version, c.settings_hash,
			c.head_commit, c.base_commit = ? DESC, c.recorded DESC, c.id DESC`,
		args...)
	return rows, bases, err
}

// benchmarkFilter returns the function that reports whether a result of
// benchmark id (named name, of package pkg in module module) belongs to a
// series: always when names is empty, else when one of names is its id,
// its name or its name as shown. It records the names that matched in
// matched.
func benchmarkFilter(names []string, matched map[string]bool) func(module, pkg, id, name string) bool {
	return func(module, pkg, id, name string) bool {
		if len(names) == 0 {
			return true
		}
		shown := benchname.Display(module, pkg, name)
		ok := false
		for _, b := range names {
			if b == id || b == name || b == shown {
				matched[b], ok = true, true
			}
		}
		return ok
	}
}

// A seriesRow is one row of querySeriesRows: the series the result
// belongs to, its point as far as scanned, and the stored columns the
// rest of the point is made from.
type seriesRow struct {
	sr                      Series
	p                       Point
	module, settingsJSON    string
	measuredAgainst         string
	headT                   int64
	change, lo, hi          sql.NullFloat64
	baseV, headV, threshold sql.NullFloat64
	attributed, flat        sql.NullFloat64
	verdict                 sql.NullString
	est, estLo, estHi       sql.NullFloat64
	rel, bshare, unattr     sql.NullFloat64
	basis, culprits         sql.NullString
	noImpact                sql.NullBool
}

// scan reads the current row of rows into r.
func (r *seriesRow) scan(rows *sql.Rows) error {
	return rows.Scan(&r.sr.ID, &r.sr.Package, &r.sr.Name, &r.sr.Unit, &r.module,
		&r.sr.Machine.GOOS, &r.sr.Machine.GOARCH, &r.sr.Machine.CPU, &r.sr.Machine.GoVersion, &r.sr.SettingsHash, &r.settingsJSON,
		&r.p.Head.Spec, &r.p.Head.Commit, &r.headT, &r.p.Head.Subject, &r.p.Head.Depth,
		&r.change, &r.lo, &r.hi, &r.verdict, &r.p.Comparison,
		&r.baseV, &r.headV, &r.threshold, &r.attributed, &r.flat, &r.measuredAgainst,
		&r.est, &r.estLo, &r.estHi, &r.basis, &r.rel, &r.bshare, &r.unattr, &r.noImpact, &r.culprits)
}

// point returns r's point with its stored values, and why it is unusable
// ("" when it is usable): a change that is no usable change, an unknown
// verdict, or a change measured against another baseline than base that
// the bridges of paths, with their ratios, cannot carry over to base. A
// change they carry over is the change against base, its Base the
// baseline it was measured against.
func (r *seriesRow) point(base string, paths map[string]bridgePath, ratios map[int64]map[seriesKey]ratio) (Point, string) {
	p := r.p
	p.Change, p.CI.Low, p.CI.High = r.change.Float64, r.lo.Float64, r.hi.Float64
	p.BaseValue, p.HeadValue, p.Threshold = finiteOr0(r.baseV), finiteOr0(r.headV), finiteOr0(r.threshold)
	if r.attributed.Valid && r.flat.Valid {
		p.Impact = &callgraph.Impact{Attributed: finiteOr0(r.attributed), Flat: finiteOr0(r.flat)}
	}
	p.AppImpact = storedImpact(r.est, r.estLo, r.estHi, r.basis, r.rel, r.bshare, r.unattr, r.noImpact)
	p.Culprits = storedCulprits(r.culprits)
	reason := unusable(r.change, r.lo, r.hi)
	if reason == "" {
		if err := p.Verdict.UnmarshalText([]byte(r.verdict.String)); err != nil {
			reason = fmt.Sprintf("unknown verdict %q", r.verdict.String)
		}
	}
	if reason == "" && r.measuredAgainst != base {
		measuredAgainst := r.measuredAgainst
		k := seriesKey{r.sr.ID, r.sr.Unit, r.sr.Machine, r.sr.SettingsHash}
		c, why := carry(paths[measuredAgainst], k, ratios)
		if why != "" {
			reason = fmt.Sprintf("measured against %s: %s", measuredAgainst[:min(10, len(measuredAgainst))], why)
		} else {
			p.Base = measuredAgainst
			p.Change = c.mid*(1+p.Change) - 1
			p.CI.Low, p.CI.High = c.lo*(1+p.CI.Low)-1, c.hi*(1+p.CI.High)-1
		}
	}
	return p, reason
}
