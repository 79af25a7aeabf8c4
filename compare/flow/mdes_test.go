package flow_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/analysis"
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
	// An empty file: what another mbopt compare creating the history at
	// this moment leaves for an instant (a compare started beside it
	// failed, "not an mbopt history database: the file is empty", and
	// wrote no report).
	empty := filepath.Join(dir, "empty.db")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	mdes, err = flow.MeasuredMDEs(ctx, empty)
	require.NoError(t, err)
	assert.Nil(t, mdes)
	// An SQLite database without tables: the next instant of the same.
	bare := filepath.Join(dir, "bare.db")
	db, err := sql.Open("sqlite", bare)
	require.NoError(t, err)
	_, err = db.Exec("PRAGMA user_version = 0; CREATE TABLE t(x); DROP TABLE t")
	require.NoError(t, err)
	require.NoError(t, db.Close())
	_, err = history.OpenReadOnly(ctx, bare)
	require.ErrorIs(t, err, history.ErrNothingYet)
	require.ErrorIs(t, err, history.ErrNotHistory)
	mdes, err = flow.MeasuredMDEs(ctx, bare)
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

// TestAnalysisConfig: a history's measurements make the caught objective
// the default and feed the detectable slowdowns; a history without them
// leaves the objective to the options and, asked for the detectable
// slowdowns, says why; no history reads none.
func TestAnalysisConfig(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	st, err := history.Open(ctx, empty)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	measured := filepath.Join(dir, "history.db")
	st, err = history.Open(ctx, measured)
	require.NoError(t, err)
	rev := compare.Revision{Commit: "3333333333333333333333333333333333333333"}
	rep := &compare.Report{Base: rev, Head: rev, Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5},
		Results: []compare.Result{{ID: "example.com/m.BenchmarkA", Unit: "sec/op", Status: compare.Compared,
			Estimate: &benchstats.Estimate{Change: 0.01, CI: benchstats.Interval{Low: -0.01, High: 0.02}}}}}
	_, err = st.Add(ctx, rep, history.ThisMachine("go1.26.8"))
	require.NoError(t, err)
	require.NoError(t, st.Close())

	tests := []struct {
		name        string
		history     string
		sensitivity bool
		objective   optimize.Objective
		mdes        int    // measured MDEs the detectable slowdowns get
		err         string // part of the error, "" for none
	}{
		{"no history", "", false, optimize.NodeCount, 0, ""},
		{"measured", measured, false, optimize.Caught, 0, ""},
		{"measured, sensitivity", measured, true, optimize.Caught, 1, ""},
		{"nothing measured", empty, false, optimize.NodeCount, 0, ""},
		{"nothing measured, sensitivity", empty, true, optimize.NodeCount, 0, "holds no comparison"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := analysis.Options{App: []string{"app.pprof"}, Micro: []string{"profiles"}, Nodes: "project", Impact: "attributed", Targets: "callable", Edges: "sampled", Sensitivity: tt.sensitivity}
			cfg, err := flow.AnalysisConfig(ctx, opts, true, flow.AnalysisHistory{Path: tt.history, Dir: dir})
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				require.ErrorIs(t, err, mbopt.ErrInput)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.objective, cfg.Select.Objective)
			if tt.sensitivity {
				assert.Len(t, cfg.Sensitivity.MDEs, tt.mdes)
			}
		})
	}
}

// TestAnalysisConfigHistory: without a History, the module's default
// database gives the detectable slowdowns and the caught objective their
// MDEs when it exists, without making caught the default objective, and
// one that cannot be read there is a warning carried in the configuration;
// a given History makes caught the default, and one that cannot be read
// is an input error.
func TestAnalysisConfigHistory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644))
	opts := analysis.Options{App: []string{"app.pprof"}, Micro: []string{"micro"}, Nodes: "project", Impact: "attributed", Targets: "callable", Edges: "sampled", Sensitivity: true}
	def := history.PathIn(dir)

	cfg, err := flow.AnalysisConfig(ctx, opts, true, flow.AnalysisHistory{Dir: dir})
	require.NoError(t, err)
	assert.Nil(t, cfg.Sensitivity.MDEs)
	assert.Empty(t, cfg.Sensitivity.History)
	assert.NoError(t, cfg.Sensitivity.HistoryWarning)
	assert.NoFileExists(t, def, "reading never creates the default history")

	st, err := history.Open(ctx, def)
	require.NoError(t, err)
	rev := compare.Revision{Commit: "3333333333333333333333333333333333333333"}
	_, err = st.Add(ctx, &compare.Report{Base: rev, Head: rev, Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5},
		Results: []compare.Result{{ID: "example.com/m.BenchmarkA", Unit: "sec/op", Status: compare.Compared,
			Estimate: &benchstats.Estimate{CI: benchstats.Interval{Low: -0.01, High: 0.01}}}}}, history.ThisMachine("go1.26.8"))
	require.NoError(t, err)
	require.NoError(t, st.Close())
	want := map[string]float64{"example.com/m.BenchmarkA": 0.01}
	for _, tc := range []struct {
		name      string
		objective string
		h         flow.AnalysisHistory
		selected  optimize.Objective
	}{
		{"default history", "", flow.AnalysisHistory{Dir: dir}, optimize.NodeCount},
		{"default history, caught", "caught", flow.AnalysisHistory{Dir: dir}, optimize.Caught},
		{"given history", "", flow.AnalysisHistory{Path: def}, optimize.Caught},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := opts
			o.Objective = tc.objective
			cfg, err := flow.AnalysisConfig(ctx, o, true, tc.h)
			require.NoError(t, err)
			assert.Equal(t, tc.selected, cfg.Select.Objective)
			for _, c := range []*analysis.SensitivityConfig{cfg.Sensitivity, &cfg.Select.Caught} {
				assert.InDeltaMapValues(t, want, c.MDEs, 1e-12)
				assert.Equal(t, def, c.History)
				assert.NoError(t, c.HistoryWarning)
			}
		})
	}

	require.NoError(t, os.WriteFile(def, []byte("not a database"), 0o644))
	cfg, err = flow.AnalysisConfig(ctx, opts, true, flow.AnalysisHistory{Dir: dir})
	require.NoError(t, err, "a damaged default history fails nothing")
	assert.Nil(t, cfg.Sensitivity.MDEs)
	assert.ErrorContains(t, cfg.Sensitivity.HistoryWarning, "the module's history database "+def+": not an mbopt history database")
	_, err = flow.AnalysisConfig(ctx, opts, true, flow.AnalysisHistory{Path: def})
	assert.ErrorIs(t, err, mbopt.ErrInput)
	assert.ErrorContains(t, err, "History "+def+": not an mbopt history database")
}
