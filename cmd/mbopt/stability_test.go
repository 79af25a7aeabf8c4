package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/history"
)

// TestSuiteMaxInstability: --max-instability leaves out the benchmarks
// whose stored A/A instability is larger, and a note says what that costs.
// The A/A result is a measured MDE, which would make the caught objective
// the default: --objective nodes keeps the coverage suite this test
// checks.
func TestSuiteMaxInstability(t *testing.T) {
	app, micro := figure62Collection(t)
	db := filepath.Join(t.TempDir(), "history.db")
	ctx := context.Background()
	st, err := history.Open(ctx, db)
	require.NoError(t, err)
	rev := compare.Revision{Commit: "1111111111111111111111111111111111111111"}
	aa := &compare.Report{Base: rev, Head: rev, Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5},
		Results: []compare.Result{{ID: "example.com/fig/app.BenchmarkOne", Unit: "sec/op", Status: compare.Compared,
			Estimate: &benchstats.Estimate{CI: benchstats.Interval{Low: -0.1, High: 0.1}}}}}
	_, err = st.Add(ctx, aa, history.ThisMachine("go1.26.8"))
	require.NoError(t, err)
	require.NoError(t, st.Close())

	code, out, errOut := run(t, "suite", "--app", app, "--micro", micro, "--format", "list", "--history", db, "--max-instability", "0.25", "--objective", "nodes")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "example.com/fig/app BenchmarkOne\nexample.com/fig/other BenchmarkTwo/n=1\n", out, "an A/A instability of 20% is within 25%")
	assert.NotContains(t, errOut, "left out")
	code, out, errOut = run(t, "suite", "--app", app, "--micro", micro, "--format", "list", "--history", db, "--max-instability", "0.1", "--objective", "nodes")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "example.com/fig/other BenchmarkTwo/n=1\n", out)
	assert.Contains(t, errOut, "mbopt: note: --max-instability left out 1 of the benchmarks (example.com/fig/app.BenchmarkOne): the suite can cover ")
}
