package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/relevance/sensitivity"
	"github.com/mbopt/mbopt/report"
)

// exampleHistory writes a history whose one comparison measured every
// example benchmark's minimum detectable effect: 1% (its CI's half-width),
// but 8% for the two HTTP benchmarks, whose handlers allocate.
func exampleHistory(t *testing.T) string {
	t.Helper()
	entries, err := os.ReadDir(exampleDir + "/micro")
	require.NoError(t, err)
	rev := compare.Revision{Commit: "2222222222222222222222222222222222222222"}
	rep := &compare.Report{Base: rev, Head: rev, Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5}}
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".pprof")
		w := 0.01
		if strings.HasPrefix(id, "httpapi__") {
			w = 0.08
		}
		rep.Results = append(rep.Results, compare.Result{ID: id, Unit: "sec/op", Status: compare.Compared,
			Estimate: &benchstats.Estimate{CI: benchstats.Interval{Low: -w, High: w}}})
	}
	db := filepath.Join(t.TempDir(), "history.db")
	st, err := history.Open(context.Background(), db)
	require.NoError(t, err)
	_, err = st.Add(context.Background(), rep, history.ThisMachine("go1.26.8"))
	require.NoError(t, err)
	require.NoError(t, st.Close())
	return db
}

// TestHistoryMakesCaughtDefault: given a history that measured the
// benchmarks' MDEs, analyze's suite keeps what the whole suite would catch
// (the caught objective, its default then), which Algorithm 2's suite of
// the same profiles does not; --objective nodes still chooses Algorithm 2,
// and without --history it is the default.
func TestHistoryMakesCaughtDefault(t *testing.T) {
	db := exampleHistory(t)
	base := []string{"analyze", "--app", exampleDir + "/app.pprof", "--micro", exampleDir + "/micro", "--module", "example.com/tinytsdb", "--recommend", "0", "--sensitivity", "--format", "json"}
	type doc struct {
		MinimalSuite []struct {
			ID string `json:"id"`
		} `json:"minimal_suite"`
		Selection   *report.Selection  `json:"selection"`
		Sensitivity sensitivity.Result `json:"sensitivity"`
	}
	analyze := func(args ...string) doc {
		t.Helper()
		code, out, errOut := run(t, append(append([]string{}, base...), args...)...)
		require.Equal(t, 0, code, errOut)
		var d doc
		require.NoError(t, json.Unmarshal([]byte(out), &d))
		return d
	}
	at10 := func(ps []sensitivity.Point) float64 {
		for _, p := range ps {
			if p.Slowdown == 0.10 {
				return p.AppShare
			}
		}
		t.Fatalf("no +10%% point in %v", ps)
		return 0
	}
	caught, nodes, plain := analyze("--history", db), analyze("--history", db, "--objective", "nodes"), analyze()
	require.NotNil(t, caught.Selection)
	assert.Equal(t, "caught", caught.Selection.Objective)
	require.NotNil(t, caught.Selection.Caught)
	c := caught.Selection.Caught
	assert.Equal(t, 19, c.MeasuredMDEs)
	assert.InDelta(t, c.WholeShare, c.SuiteShare, 1e-12, "the suite keeps what the whole suite catches")
	assert.InDelta(t, at10(caught.Sensitivity.Caught), c.WholeShare, 1e-12)
	assert.InDelta(t, at10(caught.Sensitivity.Caught), at10(caught.Sensitivity.SuiteCaught), 1e-12)
	assert.Nil(t, nodes.Selection, "--objective nodes is Algorithm 2")
	// The figures docs/sensitivity.md quotes. With every MDE at 1% a
	// benchmark catches a +10% slowdown of a function that is at least
	// (1% threshold + 1% MDE) / 10% = 20% of its work (9% for the HTTP
	// benchmarks: 90%).
	assert.InDelta(t, 0.245, c.WholeShare, 0.0005, "the whole suite at +10%")
	assert.InDelta(t, 0.228, at10(nodes.Sensitivity.SuiteCaught), 0.0005, "Algorithm 2's suite at +10%")
	assert.Less(t, at10(nodes.Sensitivity.SuiteCaught), c.WholeShare-0.01, "Algorithm 2's suite loses detectability")
	assert.Nil(t, plain.Selection, "without --history the default stays Algorithm 2")
	ids := func(d doc) []string {
		var out []string
		for _, p := range d.MinimalSuite {
			out = append(out, p.ID)
		}
		return out
	}
	t.Logf("+10%% caught: whole suite %.1f%%; caught suite %d picks %v %.1f%%; Algorithm 2's %d picks %v %.1f%%",
		100*c.WholeShare, len(caught.MinimalSuite), ids(caught), 100*c.SuiteShare, len(nodes.MinimalSuite), ids(nodes), 100*at10(nodes.Sensitivity.SuiteCaught))
}
