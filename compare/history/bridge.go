package history

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/mbopt/mbopt/compare"
)

// A Bridge is a bridging comparison ([Store.AddBridge]): the old
// baseline From against the new one To. A [Set] lists the bridges its
// series were carried across.
type Bridge struct {
	// Comparison is the stored comparison's id.
	Comparison int64 `json:"comparison"`
	// From is the old baseline (the comparison's base).
	From compare.Revision `json:"from"`
	// To is the new baseline (its head).
	To compare.Revision `json:"to"`
}

// seriesKey names a series: what a bridge's result must match to carry
// a point across.
type seriesKey struct {
	id, unit     string
	machine      Machine
	settingsHash string
}

// ratio is a performance ratio (1 + a change) with its interval.
type ratio struct{ lo, mid, hi float64 }

// bridgePath is the way from the Set's baseline to another baseline:
// the bridges in order, each crossed forwards (from its From to its To)
// or backwards.
type bridgePath []struct {
	id      int64
	forward bool
}

// bridges finds every baseline the bridges connect to base, with the path
// to each, and the bridges crossed, in the order first reached (breadth
// first, bridges in id order).
func (s *Store) bridges(ctx context.Context, base string) (map[string]bridgePath, []Bridge, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT id, base_spec, base_commit, base_time, base_subject, base_depth,
			head_spec, head_commit, head_time, head_subject, head_depth
		FROM comparisons WHERE bridge = 1 AND aa = 0 ORDER BY id`)
	if err != nil {
		return nil, nil, err
	}
	var all []Bridge
	for rows.Next() {
		var b Bridge
		var ft, tt int64
		if err := rows.Scan(&b.Comparison, &b.From.Spec, &b.From.Commit, &ft, &b.From.Subject, &b.From.Depth,
			&b.To.Spec, &b.To.Commit, &tt, &b.To.Subject, &b.To.Depth); err != nil {
			rows.Close()
			return nil, nil, err
		}
		b.From.Time, b.To.Time = time.Unix(0, ft).UTC(), time.Unix(0, tt).UTC()
		all = append(all, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	paths := map[string]bridgePath{base: nil}
	var used []Bridge
	queue := []string{base}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		for _, b := range all {
			next, forward := "", false
			switch at {
			case b.From.Commit:
				next, forward = b.To.Commit, true
			case b.To.Commit:
				next = b.From.Commit
			default:
				continue
			}
			if _, seen := paths[next]; seen {
				continue
			}
			p := append(append(bridgePath(nil), paths[at]...), struct {
				id      int64
				forward bool
			}{b.Comparison, forward})
			paths[next] = p
			used = append(used, b)
			queue = append(queue, next)
		}
	}
	return paths, used, nil
}

// bridgeRatios reads the results of the bridge comparisons ids: per
// bridge and series, the ratio of the new baseline to the old one.
// Unusable results are left out.
func (s *Store) bridgeRatios(ctx context.Context, ids []int64) (map[int64]map[seriesKey]ratio, error) {
	out := map[int64]map[seriesKey]ratio{}
	for _, id := range ids {
		rows, err := s.db.QueryContext(ctx, `
			SELECT r.bench_id, r.unit, c.goos, c.goarch, c.cpu, c.go_version, c.settings_hash,
				r.change, r.ci_low, r.ci_high
			FROM results r JOIN comparisons c ON r.comparison_id = c.id
			WHERE c.id = ? AND r.status = ?`, id, string(compare.Compared))
		if err != nil {
			return nil, err
		}
		m := map[seriesKey]ratio{}
		for rows.Next() {
			var k seriesKey
			var change, lo, hi sql.NullFloat64
			if err := rows.Scan(&k.id, &k.unit, &k.machine.GOOS, &k.machine.GOARCH, &k.machine.CPU, &k.machine.GoVersion, &k.settingsHash,
				&change, &lo, &hi); err != nil {
				rows.Close()
				return nil, err
			}
			if !change.Valid || unusable(change, lo, hi) != "" {
				continue
			}
			m[k] = ratio{1 + lo.Float64, 1 + change.Float64, 1 + hi.Float64}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		out[id] = m
	}
	return out, nil
}

// carry returns the ratio of the baseline at the end of path to the
// Set's baseline for series k, by interval arithmetic over the bridges'
// ratios, or why it cannot.
func carry(path bridgePath, k seriesKey, ratios map[int64]map[seriesKey]ratio) (ratio, string) {
	r := ratio{1, 1, 1}
	for _, step := range path {
		b, ok := ratios[step.id][k]
		if !ok || b.lo <= 0 {
			return ratio{}, fmt.Sprintf("the bridge comparison %d holds no usable result for it", step.id)
		}
		if step.forward {
			r = ratio{r.lo * b.lo, r.mid * b.mid, r.hi * b.hi}
		} else {
			r = ratio{r.lo / b.hi, r.mid / b.mid, r.hi / b.lo}
		}
	}
	return r, ""
}

// Benchmarks returns the benchmarks with a compared result against the
// baseline base (a full commit hash), A/A comparisons aside, sorted by
// package, then name: what a bridging comparison from base measures
// (mbopt history rebaseline).
func (s *Store) Benchmarks(ctx context.Context, base string) ([]compare.Benchmark, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT DISTINCT r.package, r.name FROM results r JOIN comparisons c ON r.comparison_id = c.id
		WHERE c.base_commit = ? AND c.aa = 0 AND r.status = ? AND r.package != ''
		ORDER BY r.package, r.name`, base, string(compare.Compared))
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	defer rows.Close()
	var out []compare.Benchmark
	for rows.Next() {
		var b compare.Benchmark
		if err := rows.Scan(&b.Package, &b.Name); err != nil {
			return nil, fmt.Errorf("history: %s: %w", s.path, err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// connectBridges sets set's Bridges, the bridging comparisons that connect
// other baselines to set's Baseline, with Comparisons and OtherBaselines.
// It returns the path of bridges from each baseline they reach (the Set's
// own included), and per bridge and series the ratio of its new baseline
// to its old one.
func (s *Store) connectBridges(ctx context.Context, set *Set) (map[string]bridgePath, map[int64]map[seriesKey]ratio, error) {
	paths, used, err := s.bridges(ctx, set.Baseline.Commit)
	if err != nil {
		return nil, nil, err
	}
	set.Bridges = used
	if set.Comparisons, set.OtherBaselines, err = s.otherBaselines(ctx, paths); err != nil {
		return nil, nil, err
	}
	var ids []int64
	for _, b := range used {
		ids = append(ids, b.Comparison)
	}
	ratios, err := s.bridgeRatios(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	return paths, ratios, nil
}
