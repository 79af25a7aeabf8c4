package history

import (
	"context"

	"github.com/mbopt/mbopt/compare/benchstats"
)

// MDEs returns each benchmark's minimum detectable effect in unit (such as
// "instructions/op") from its latest stored comparison, the last one
// added that has an interval for it: the estimate's
// benchstats.Estimate.MinDetectableEffect, a fraction. Benchmarks with no
// such result are not in the map.
func (s *Store) MDEs(ctx context.Context, unit string) (map[string]float64, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT r.bench_id, r.change, r.ci_low, r.ci_high
		FROM results r JOIN comparisons c ON c.id = r.comparison_id
		WHERE r.unit = ? AND r.change IS NOT NULL AND r.ci_low IS NOT NULL AND r.ci_high IS NOT NULL
		ORDER BY c.id`, unit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]float64{}
	for rows.Next() {
		var id string
		var e benchstats.Estimate
		if err := rows.Scan(&id, &e.Change, &e.CI.Low, &e.CI.High); err != nil {
			return nil, err
		}
		out[id] = e.MinDetectableEffect()
	}
	return out, rows.Err()
}
