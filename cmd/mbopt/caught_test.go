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
	return exampleHistoryFrom(t, exampleDir, filepath.Join(t.TempDir(), "history.db"))
}

// exampleHistoryFrom writes exampleHistory's history at db for the
// example profiles in ex.
func exampleHistoryFrom(t *testing.T, ex, db string) string {
	t.Helper()
	entries, err := os.ReadDir(ex + "/micro")
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
	require.NoError(t, os.MkdirAll(filepath.Dir(db), 0o755))
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

// TestDefaultHistoryMDEs: without --history, analyze reads the benchmarks'
// MDEs from the module's default history when it exists (mbopt compare
// stores there), and says where they came from; it never creates one, a
// damaged one there is a warning (the MDEs are then the typical value)
// while the same file given as --history is bad input, and the default
// history's MDEs feed --sensitivity and --objective caught without making
// caught the default objective (the suite does not change once compare
// has run; --history does make it the default).
func TestDefaultHistoryMDEs(t *testing.T) {
	ex, err := filepath.Abs(exampleDir)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/tinytsdb\n\ngo 1.24\n"), 0o644))
	t.Chdir(dir)
	db, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	db = filepath.Join(db, ".mbopt", "history.db")
	type doc struct {
		Selection   *report.Selection  `json:"selection"`
		Sensitivity sensitivity.Result `json:"sensitivity"`
		MDEHistory  string             `json:"mde_history"`
	}
	analyze := func(want int, args ...string) (doc, string, string) {
		t.Helper()
		base := []string{"analyze", "--app", ex + "/app.pprof", "--micro", ex + "/micro", "--module", "example.com/tinytsdb", "--recommend", "0", "--sensitivity"}
		code, out, errOut := run(t, append(base, args...)...)
		require.Equal(t, want, code, errOut)
		var d doc
		if want == 0 {
			_, js, errJS := run(t, append(append(base, args...), "--format", "json")...)
			require.NoError(t, json.Unmarshal([]byte(js), &d), errJS)
		}
		return d, out, errOut
	}

	// No history: the typical MDEs, and how to measure them; nothing
	// created.
	d, out, _ := analyze(0)
	assert.Zero(t, d.Sensitivity.Measured)
	assert.Empty(t, d.MDEHistory)
	assert.Contains(t, out, "MDEs: none measured, so all take the typical 5.0%: mbopt compare measures them into the module's history, which is read when it exists, or into --history's;")
	assert.NoDirExists(t, filepath.Join(dir, ".mbopt"), "reading never creates the history")

	// The module's history, as mbopt compare leaves it.
	exampleHistoryFrom(t, ex, db)
	d, out, _ = analyze(0)
	assert.Equal(t, 19, d.Sensitivity.Measured)
	assert.Equal(t, db, d.MDEHistory)
	assert.Contains(t, out, "MDEs: 19 measured in the comparisons in "+db+", the others 5.0%;")
	assert.Nil(t, d.Selection, "the default history keeps Algorithm 2 the default")
	d, out, _ = analyze(0, "--objective", "caught")
	require.NotNil(t, d.Selection)
	require.NotNil(t, d.Selection.Caught)
	assert.Equal(t, 19, d.Selection.Caught.MeasuredMDEs)
	assert.Contains(t, out, "(minimum detectable effects: every one measured, in the comparisons in "+db+").")
	d, _, _ = analyze(0, "--history", db)
	require.NotNil(t, d.Selection, "--history makes the caught objective the default")
	assert.Equal(t, "caught", d.Selection.Objective)
	// --mde is the others' typical value: every benchmark is measured.
	d, _, _ = analyze(0, "--mde", "0.02")
	assert.Equal(t, 19, d.Sensitivity.Measured)

	// A damaged default history fails nothing; the same file given is
	// bad input.
	require.NoError(t, os.WriteFile(db, []byte("not a database"), 0o644))
	d, _, errOut := analyze(0)
	assert.Zero(t, d.Sensitivity.Measured)
	assert.Empty(t, d.MDEHistory)
	assert.Contains(t, errOut, "mbopt: warning: the module's history database "+db+": not an mbopt history database")
	assert.Contains(t, errOut, "(or name another with --history); the benchmarks' minimum detectable effects are the typical value\n")
	_, _, errOut = analyze(2, "--history", db)
	assert.Contains(t, errOut, "--history "+db+": not an mbopt history database")
}
