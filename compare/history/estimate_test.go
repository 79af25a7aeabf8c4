package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
)

// estimated is report's comparison with an estimated application impact
// and culprits on BenchmarkA, and the application measured on both
// versions.
func estimated(base, head byte, n int) *compare.Report {
	r := report(base, head, n, 0.01, map[string]float64{"BenchmarkA": 0.12, "BenchmarkB": 0.2})
	r.Results[0].AppImpact = &culprit.AppImpact{Estimate: 0.068, Low: 0.061, High: 0.074, Basis: culprit.BasisFunctions, RelevantShare: 0.9, BenchmarkShare: 0.4}
	r.Results[0].Culprits = []culprit.Culprit{{Function: "m.parse"}, {Function: "m.scan"}, {Function: "m.copy"}, {Function: "m.fourth"}}
	r.Results[1].AppImpact = &culprit.AppImpact{Estimate: 0.0004, Low: -0.001, High: 0.002, Basis: culprit.BasisFunctions, RelevantShare: 0.02, NoImpact: true}
	r.AppMeasured = &compare.AppMeasurement{Source: "benchmark example.com/m.BenchmarkApp", Unit: "sec/op",
		Estimate: benchstats.Estimate{Change: 0.07, CI: benchstats.Interval{Low: 0.05, High: 0.09}, BaseMedian: 2e-3, HeadMedian: 2.14e-3, BaseN: 45, HeadN: 45, P: 0.0002}}
	return r
}

// TestEstimateStored: the history keeps each result's estimated
// application impact, its interval and likely_no_app_impact, the top
// culprits' names, and the application measured on both versions, and
// the series give them back (issue 30 item 5: the stored comparison had
// only the reference impact, so the site drew a detection compare had
// called "likely no application impact" at 21.7%).
func TestEstimateStored(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	_, err := s.Add(ctx, estimated('a', 'b', 1), testMachine)
	require.NoError(t, err)
	_, err = s.Add(ctx, report('a', 'c', 2, 0.01, map[string]float64{"BenchmarkA": 0.1, "BenchmarkB": 0.2}), testMachine)
	require.NoError(t, err)
	set, err := s.Series(ctx, Query{})
	require.NoError(t, err)
	require.Len(t, set.Series, 2)
	a, b := set.Series[0], set.Series[1]
	require.Len(t, a.Points, 2)
	assert.Equal(t, &culprit.AppImpact{Estimate: 0.068, Low: 0.061, High: 0.074, Basis: culprit.BasisFunctions, RelevantShare: 0.9, BenchmarkShare: 0.4}, a.Points[0].AppImpact)
	assert.Equal(t, []string{"m.parse", "m.scan", "m.copy"}, a.Points[0].Culprits, "the top MaxCulpritNames")
	assert.Nil(t, a.Points[1].AppImpact, "not estimated")
	assert.Nil(t, a.Points[1].Culprits)
	assert.True(t, b.Points[0].NoImpact)

	js, err := json.Marshal(a.Points[0])
	require.NoError(t, err)
	for _, field := range []string{`"app_impact":0.068`, `"app_impact_low":0.061`, `"app_impact_high":0.074`, `"app_impact_basis":"functions"`, `"culprits":["m.parse","m.scan","m.copy"]`} {
		assert.Contains(t, string(js), field)
	}
	js, err = json.Marshal(a.Points[1])
	require.NoError(t, err)
	assert.NotContains(t, string(js), "app_impact")

	require.Len(t, set.Confirmations, 1)
	c := set.Confirmations[0]
	assert.Equal(t, commit('b'), c.Head.Commit)
	assert.Equal(t, commit('a'), c.Base)
	assert.Equal(t, "benchmark example.com/m.BenchmarkApp", c.Source)
	assert.Equal(t, 0.07, c.Estimate.Change)
	app := c.Application()
	require.NoError(t, app.Check())
	assert.Equal(t, FromConfirmation, app.Source)
	assert.InDelta(t, 2.14e-3, app.Value, 1e-12)
	assert.InDelta(t, 2e-3*1.05, app.CI.Low, 1e-12)
}

// TestMigrateFromV5: a history of schema 5 opens, its results without an
// estimate, and takes the estimates of new comparisons; read-only, it is
// read through a migrated copy and the file keeps its schema.
func TestMigrateFromV5(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v5.db")
	// Schema 5 as that mbopt made it: the first five migrations.
	st := estimated('a', 'c', 2).Settings
	settings, err := json.Marshal(st)
	require.NoError(t, err)
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	tx, err := db.BeginTx(ctx, nil)
	require.NoError(t, err)
	for _, m := range migrations[:5] {
		require.NoError(t, m(ctx, tx))
	}
	_, err = tx.Exec(`UPDATE schema_version SET version = 5`)
	require.NoError(t, err)
	_, err = tx.Exec(`INSERT INTO comparisons (id, module, base_spec, base_commit, base_time, base_dirty, base_subject,
		head_spec, head_commit, head_time, head_dirty, head_subject, goos, goarch, cpu, go_version, settings, settings_hash, wall_ns, recorded)
		VALUES (1, 'example.com/m', 'main', ?, 0, 0, 'base', 'HEAD', ?, 3600000000000, 0, 'change b', 'linux', 'amd64', 'Test CPU', 'go1.26.8', ?, ?, 1, 1)`, commit('a'), commit('b'), string(settings), SettingsHash(st))
	require.NoError(t, err)
	_, err = tx.Exec(`INSERT INTO results (comparison_id, bench_id, package, name, unit, status, side, error, change, ci_low, ci_high,
		base_median, head_median, base_n, head_n, verdict, p_value, trials, threshold, impact_attributed, impact_flat)
		VALUES (1, 'example.com/m.BenchmarkA', 'example.com/m', 'BenchmarkA', 'sec/op', 'compared', '', '', 0.12, 0.11, 0.13,
		100, 112, 45, 45, 'definite-regression', 0.01, 3, 0.01, 0.2, 0.217)`)
	require.NoError(t, err)
	require.NoError(t, tx.Commit())
	require.NoError(t, db.Close())

	ro, err := OpenReadOnly(ctx, path)
	require.NoError(t, err)
	set, err := ro.Series(ctx, Query{})
	require.NoError(t, err)
	require.NoError(t, ro.Close())
	require.Len(t, set.Series, 1)
	p := set.Series[0].Points[0]
	assert.Nil(t, p.AppImpact, "schema 5 stored no estimate")
	assert.InDelta(t, 0.217, p.Impact.Flat, 1e-12)
	assert.Empty(t, set.Confirmations)

	s := open(t, path)
	v, err := s.version(ctx)
	require.NoError(t, err)
	assert.Equal(t, SchemaVersion, v)
	require.NoError(t, s.Check(ctx))
	_, err = s.Add(ctx, estimated('a', 'c', 2), testMachine)
	require.NoError(t, err)
	set, err = s.Series(ctx, Query{Benchmarks: []string{"BenchmarkA"}})
	require.NoError(t, err)
	require.Len(t, set.Series[0].Points, 2)
	assert.Nil(t, set.Series[0].Points[0].AppImpact)
	assert.InDelta(t, 0.068, set.Series[0].Points[1].Estimate, 1e-12)
	require.Len(t, set.Confirmations, 1)
}
