package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/counted"
	"github.com/mbopt/mbopt/testkit/need"
)

// TestCompareCalibration: compare --aa stores each benchmark's A/A
// instability in the history; the next compare takes each verdict against
// the benchmark's calibrated threshold; --threshold and --no-history go
// back to one threshold for all.
//
// The fixture's changes are threefold (cmpfixture.Variant.Threefold): the
// gate failing on BenchmarkSlower is what the last runs check, and at ±30%
// one trial whose CPU time ran 1.43x high kept the 99% interval of three
// trials from being definite (CI judged the -30% "unchanged" twice).
func TestCompareCalibration(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{Threefold: true})
	tmp := t.TempDir()
	db := filepath.Join(dir, ".mbopt", "history.db")
	args := func(extra ...string) []string { return append(append([]string{}, compareArgs...), extra...) }

	code, stdout, stderr := mboptIn(t, dir, tmp, args("--aa", "--format", "json")...)
	require.Equal(t, cli.OK, code, "an A/A run does not gate by default\n%s", stderr)
	assert.Contains(t, stderr, "mbopt: A/A calibration from 1 A/A comparison on this machine:")
	assert.Contains(t, stderr, "stored as comparison 1 in "+db)
	var aa compare.Report
	require.NoError(t, json.Unmarshal([]byte(stdout), &aa))
	assert.Equal(t, aa.Base.Commit, aa.Head.Commit)
	assert.Positive(t, aa.Head.Depth, "the head's first-parent depth, which orders the history")
	require.NotEmpty(t, aa.GoVersion)

	ctx := context.Background()
	st, err := history.Open(ctx, db)
	require.NoError(t, err)
	m := history.ThisMachine(aa.GoVersion)
	insts, err := st.Instabilities(ctx, history.Filter{Machine: &m, SettingsHash: history.SettingsHash(aa.Settings)})
	require.NoError(t, err)
	require.Len(t, insts, 3, "one instability per benchmark of the fixture")

	// The next compare uses the calibrated thresholds.
	code, stdout, stderr = mboptIn(t, dir, tmp, args("--format", "json", "--fail-on", "never")...)
	require.Equal(t, cli.OK, code, stderr)
	var rep compare.Report
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	cal, err := history.Calibrate(insts, history.DefaultCalibrateOptions)
	require.NoError(t, err)
	for _, r := range rep.Results {
		own, ok := cal.For(r.ID, r.Unit)
		require.True(t, ok, r.ID)
		want := max(own, rep.Settings.Threshold)
		// The threshold applied is the calibrated one, or the minimum
		// detectable effect when larger; it is never the dynamic one.
		assert.GreaterOrEqual(t, r.Threshold, want-1e-12, "%s: the verdict's threshold", r.ID)
		assert.NotEqual(t, benchstats.BasisDynamic, r.ThresholdBasis, r.ID)
	}
	assert.Contains(t, stderr, "thresholds calibrated from A/A comparisons in "+db+": 3 benchmarks of their own")

	// Make the slower benchmark look very unstable in a second A/A
	// result: its threshold becomes 75% of the 80th percentile of its two
	// instabilities, 300%, so its +200% is no longer a regression.
	noisy := &compare.Report{Module: cmpfixture.Module, Base: aa.Base, Head: aa.Head, Settings: aa.Settings, GoVersion: aa.GoVersion,
		Results: []compare.Result{{ID: cmpfixture.Package + "." + cmpfixture.Slower, Package: cmpfixture.Package, Name: cmpfixture.Slower,
			Unit: "sec/op", Status: compare.Compared, Estimate: &benchstats.Estimate{Change: 0, CI: benchstats.Interval{Low: -0.9, High: 3.1}}}}}
	_, err = st.Add(ctx, noisy, m)
	require.NoError(t, err)
	require.NoError(t, st.Close())

	code, stdout, stderr = mboptIn(t, dir, tmp, args("--bench", "Slower", "--format", "json")...)
	require.Equal(t, cli.OK, code, "the calibrated threshold passes the gate\n%s", stderr)
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	require.Len(t, rep.Results, 1)
	assert.GreaterOrEqual(t, rep.Results[0].Threshold, 3.0-1e-12)
	assert.False(t, rep.Results[0].Verdict.Definite(), rep.Results[0].Verdict.String())

	for _, extra := range [][]string{{"--threshold", "0.01"}, {"--no-history"}} {
		code, _, stderr = mboptIn(t, dir, tmp, args(append([]string{"--bench", "Slower"}, extra...)...)...)
		assert.Equal(t, cli.Gate, code, "%v: one threshold for all\n%s", extra, stderr)
	}
	// The history saw every comparison but the --no-history one: 2 A/A
	// (one real, one added above) and 3 others.
	st, err = history.Open(ctx, db)
	require.NoError(t, err)
	defer st.Close()
	set, err := st.Series(ctx, history.Query{})
	require.NoError(t, err)
	for _, s := range set.Series {
		assert.Len(t, s.Points, 1, "%s: every compare of one head is one point (the latest)", s.ID)
	}

	code, _, stderr = mboptIn(t, dir, tmp, args("--aa", "--base", "main")...)
	assert.Equal(t, cli.BadInput, code)
	assert.Contains(t, stderr, "--aa compares the head with itself: leave --base unset")
}

// TestSameCommitIsNoCalibration: a plain compare of a commit with itself
// (no --aa) is not stored, so it calibrates nothing: the real comparison
// after it still takes each verdict against --threshold, and the +30%
// fails the gate (issue 21 item 7, a real repository's 30–46% thresholds).
//
// It counts instructions: the +30% failing the gate is what it checks, and
// the fixture's ±30% in CPU time was judged "unchanged" under the load of
// CI's parallel packages (TestCompareGateExitCodes, compare's
// TestShardedVerdicts).
func TestSameCommitIsNoCalibration(t *testing.T) {
	need.Tool(t, "TestSameCommitIsNoCalibration (the gate on an instruction-count verdict)", "valgrind")
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	tmp := t.TempDir()
	db := filepath.Join(dir, ".mbopt", "history.db")
	counting := append(append([]string{}, compareArgs...), counted.Args(2)...)
	args := func(extra ...string) []string {
		return append(append([]string{}, counting...), append([]string{"--bench", "Slower"}, extra...)...)
	}
	code, stdout, stderr := mboptIn(t, dir, tmp, args("--base", "HEAD", "--head", "HEAD")...)
	require.Equal(t, cli.OK, code, "%s\n%s", stdout, stderr)
	assert.Contains(t, stdout, "base and head are the same commit: not stored in "+db)
	code, stdout, stderr = mboptIn(t, dir, tmp, args("--format", "json")...)
	require.Equal(t, cli.Gate, code, "%s\n%s", stdout, stderr)
	var rep compare.Report
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	var counts []compare.Result // beside them, B/op and allocs/op
	for _, r := range rep.Results {
		if r.Unit == rep.Settings.Metric.Unit() {
			counts = append(counts, r)
		}
	}
	require.Len(t, counts, 1, "%+v", rep.Results)
	r := counts[0]
	assert.Equal(t, benchstats.DefiniteRegression, r.Verdict)
	assert.NotEqual(t, benchstats.BasisCalibrated, r.ThresholdBasis, "no calibration was asked for")
	assert.NotContains(t, strings.Join(rep.Notes, "\n"), "calibrated")
}

// TestAAWallTimeHeadline: an A/A comparison in wall time on a shared
// machine leads with "no definite change", not with a noise "potential
// regression" (issue 21 item 7).
func TestAAWallTimeHeadline(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{WallTime: true})
	code, stdout, stderr := mboptIn(t, dir, t.TempDir(), append(append([]string{}, compareArgs...), "--base", "HEAD", "--head", "HEAD", "--no-history")...)
	require.Equal(t, cli.OK, code, "%s\n%s", stdout, stderr)
	// The headline follows the header (title, blank, base, head, blank).
	lines := strings.Split(stdout, "\n")
	require.Greater(t, len(lines), 5, stdout)
	assert.True(t, strings.HasPrefix(lines[5], "No definite change in 3 results"), "headline: %q\n%s", lines[5], stdout)
	assert.Contains(t, stdout, "threshold", "each result's threshold is shown")
}

// TestCompareChecksFirst: what would make compare fail after the whole
// schedule — a history it cannot store into, an -o that is an input, a
// $GITHUB_STEP_SUMMARY it cannot append to — is bad input found before
// the first benchmark (issue 25 items 2 and 3).
func TestCompareChecksFirst(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	tmp := t.TempDir()
	ctx := context.Background()
	newer := filepath.Join(tmp, "newer.db")
	st, err := history.Open(ctx, newer)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	db, err := sql.Open("sqlite", newer)
	require.NoError(t, err)
	_, err = db.Exec(`UPDATE schema_version SET version = 99`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	foreign := filepath.Join(tmp, "app.db")
	db, err = sql.Open("sqlite", foreign)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE users (id INTEGER)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	file := filepath.Join(tmp, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	odd := filepath.Join(tmp, "h#1.db")
	summaryDir := filepath.Join(tmp, "summary")
	require.NoError(t, os.Mkdir(summaryDir, 0o755))

	for _, tc := range []struct {
		name    string
		args    []string
		summary string
		want    string
	}{
		{"newer history", []string{"--history", newer}, "", "--history " + newer + ": schema version 99 is newer than this mbopt's"},
		{"foreign history", []string{"--history", foreign}, "", "--history " + foreign + ": not an mbopt history database: an SQLite database without the table comparisons (its tables: users), someone else's"},
		{"history below a file", []string{"--history", filepath.Join(file, "h.db")}, "", "--history " + filepath.Join(file, "h.db") + ": "},
		{"-o is the history", []string{"--history", odd, "-o", odd}, "", "-o " + odd + " is the input " + odd},
		{"-o is its -wal file", []string{"--history", odd, "-o", odd + "-wal"}, "", "-o " + odd + "-wal is the input " + odd + "-wal"},
		{"step summary is a directory", []string{"--no-history", "--format", "github"}, summaryDir, "$GITHUB_STEP_SUMMARY: " + summaryDir + " is a directory"},
		{"step summary in a missing directory", []string{"--no-history", "--format", "github"}, filepath.Join(tmp, "none", "s.md"), "the directory " + filepath.Join(tmp, "none") + " does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GITHUB_STEP_SUMMARY", tc.summary)
			code, stdout, stderr := mboptIn(t, dir, tmp, append(append([]string{}, compareArgs...), tc.args...)...)
			assert.Equal(t, cli.BadInput, code, stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tc.want)
			assert.NoFileExists(t, filepath.Join(dir, ".mbopt", "compare", compare.BaseFile), "no benchmark ran")
		})
	}
	assert.NoFileExists(t, odd, "-o is checked before the history is created")
	assert.NoFileExists(t, odd+"-wal")
}

// TestCompareMergeOutputIsInput: compare merge -o naming a shard's file
// is refused before anything is read or written.
func TestCompareMergeOutputIsInput(t *testing.T) {
	shard := t.TempDir()
	raw := filepath.Join(shard, compare.BaseFile)
	require.NoError(t, os.WriteFile(raw, []byte("BenchmarkX 1 2 ns/op\n"), 0o644))
	code, stdout, stderr := run(t, "compare", "merge", shard, "-o", raw, "--out", t.TempDir())
	assert.Equal(t, cli.BadInput, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "-o "+raw+" is the input "+raw)
	data, err := os.ReadFile(raw)
	require.NoError(t, err)
	assert.Equal(t, "BenchmarkX 1 2 ns/op\n", string(data))
}

// TestHistoryRebaseline: rebaseline measures the old baseline against
// the new one once and stores it as a bridge; history then says where the
// baseline moved and carries the series across (issue 23 item 4).
func TestHistoryRebaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two comparisons of the fixture")
	}
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	tmp := t.TempDir()
	code, stdout, stderr := mboptIn(t, dir, tmp, append(append([]string{}, compareArgs...), "--bench", "Slower|Faster", "--fail-on", "never", "--format", "json")...)
	require.Equal(t, cli.OK, code, stderr)
	var first compare.Report
	require.NoError(t, json.Unmarshal([]byte(stdout), &first))

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--base", "main"}, "--base: rebaseline compares --from with --to"},
		{nil, "--to REV names the new baseline"},
		{[]string{"--to", first.Base.Commit}, "is the baseline " + first.Base.Commit[:10] + " already"},
		{[]string{"--to", "no-such-rev"}, "--to: revision \"no-such-rev\" names no commit"},
	} {
		code, _, stderr := mboptIn(t, dir, tmp, append([]string{"history", "rebaseline"}, tc.args...)...)
		assert.Equal(t, cli.BadInput, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}

	// The bridge: the old baseline against the head, the benchmarks stored.
	code, stdout, stderr = mboptIn(t, dir, tmp, append([]string{"history", "rebaseline", "--to", "HEAD", "--format", "json"}, compareArgs[1:]...)...)
	require.Equal(t, cli.OK, code, "a rebaseline does not gate by default\n%s", stderr)
	var bridge compare.Report
	require.NoError(t, json.Unmarshal([]byte(stdout), &bridge))
	assert.Equal(t, first.Base.Commit, bridge.Base.Commit)
	assert.Equal(t, first.Head.Commit, bridge.Head.Commit)
	var ids []string
	for _, r := range bridge.Results {
		ids = append(ids, r.Name)
	}
	assert.ElementsMatch(t, []string{cmpfixture.Faster, cmpfixture.Slower}, ids, "the benchmarks stored against the old baseline")
	assert.Contains(t, strings.Join(bridge.Notes, "\n"), "it bridges the baseline "+first.Base.Commit[:10]+" to "+first.Head.Commit[:10])

	code, stdout, stderr = mboptIn(t, dir, tmp, "history")
	require.Equal(t, cli.OK, code, stderr)
	assert.Contains(t, stdout, "baseline moved: "+first.Base.Commit[:10]+" → "+first.Head.Commit[:10])
}
