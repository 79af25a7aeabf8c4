package flow_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/compare/history"
)

// TestMeasuredMDEs: no database yet and a database without comparisons
// measure nothing (the caught objective is then not the default); a
// comparison gives each benchmark the half-width of its latest interval.
func TestMeasuredMDEs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	mdes, err := flow.MeasuredMDEs(ctx, filepath.Join(dir, "none.db"))
	require.NoError(t, err)
	assert.Nil(t, mdes)

	path := filepath.Join(dir, "history.db")
	st, err := history.Open(ctx, path)
	require.NoError(t, err)
	mdes, err = flow.MeasuredMDEs(ctx, path)
	require.NoError(t, err)
	assert.Empty(t, mdes)

	rev := compare.Revision{Commit: "3333333333333333333333333333333333333333"}
	rep := &compare.Report{Base: rev, Head: rev, Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5},
		Results: []compare.Result{{ID: "example.com/m.BenchmarkA", Unit: "sec/op", Status: compare.Compared,
			Estimate: &benchstats.Estimate{Change: 0.01, CI: benchstats.Interval{Low: -0.01, High: 0.02}}}}}
	_, err = st.Add(ctx, rep, history.ThisMachine("go1.26.8"))
	require.NoError(t, err)
	require.NoError(t, st.Close())
	mdes, err = flow.MeasuredMDEs(ctx, path)
	require.NoError(t, err)
	assert.InDeltaMapValues(t, map[string]float64{"example.com/m.BenchmarkA": 0.02}, mdes, 1e-12, "the larger half: change - low")
}
