package history

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
)

var testMachine = Machine{GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU", GoVersion: "go1.26.8"}

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// commit returns a 40-character fake hash made of c.
func commit(c byte) string { return strings.Repeat(string(c), 40) }

// headLetters returns the first letter of each point's head commit (a commit
// letter), in the points' order.
func headLetters(points []Point) string {
	var b strings.Builder
	for _, p := range points {
		b.WriteString(p.Head.Commit[:1])
	}
	return b.String()
}

// report builds a comparison of base against head (commits made of those
// characters, head committed n hours after t0) with one sec/op result per
// benchmark: name → change, each with an interval of ±half.
func report(base, head byte, n int, half float64, changes map[string]float64) *compare.Report {
	r := &compare.Report{
		Schema: compare.SchemaVersion, Module: "example.com/m",
		Base:     compare.Revision{Spec: "main", Commit: commit(base), Time: t0, Subject: "base"},
		Head:     compare.Revision{Spec: "HEAD", Commit: commit(head), Time: t0.Add(time.Duration(n) * time.Hour), Subject: "change " + string(head)},
		Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Seed: 1, Threshold: 0.01, Confidence: 0.99, Resamples: 10000},
	}
	for _, name := range sortedKeys(changes) {
		c := changes[name]
		e := &benchstats.Estimate{Change: c, CI: benchstats.Interval{Low: c - half, High: c + half}, BaseMedian: 100, HeadMedian: 100 * (1 + c), BaseN: 45, HeadN: 45}
		r.Results = append(r.Results, compare.Result{
			ID: "example.com/m." + name, Package: "example.com/m", Name: name, Unit: "sec/op",
			Status: compare.Compared, Estimate: e, Instability: e.Instability(),
			Verdict: benchstats.Classify(*e, 0.01, false), PValue: 0.01, Trials: 3,
		})
	}
	return r
}

func sortedKeys(m map[string]float64) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestAddAndSeries(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), ".mbopt", "history.db"))
	add := func(r *compare.Report, m Machine) {
		t.Helper()
		_, err := s.Add(ctx, r, m)
		require.NoError(t, err)
	}
	// Three heads against base a, added out of commit order; head c twice
	// (the later one counts); an A/A run and a dirty head that must not
	// appear; one comparison against another base x; one on another
	// machine, which is a series of its own.
	add(report('a', 'd', 3, 0.01, map[string]float64{"BenchmarkA": 0.10, "BenchmarkB": 0}), testMachine)
	add(report('a', 'c', 2, 0.01, map[string]float64{"BenchmarkA": 0.50}), testMachine)
	add(report('a', 'c', 2, 0.01, map[string]float64{"BenchmarkA": 0.02}), testMachine)
	add(report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkA": 0.01}), testMachine)
	add(report('c', 'c', 2, 0.03, map[string]float64{"BenchmarkA": 0.001}), testMachine)
	dirty := report('a', 'e', 4, 0.01, map[string]float64{"BenchmarkA": 0.3})
	dirty.Head.Dirty = true
	add(dirty, testMachine)
	add(report('x', 'y', 1, 0.01, map[string]float64{"BenchmarkA": 0.2}), testMachine)
	other := testMachine
	other.CPU = "Other CPU"
	add(report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkA": 0.04}), other)

	set, err := s.Series(ctx, Query{})
	require.NoError(t, err)
	assert.Equal(t, commit('a'), set.Baseline.Commit, "the base of the most comparisons")
	type pt struct {
		head   string
		change float64
	}
	got := map[string][]pt{}
	for _, sr := range set.Series {
		key := sr.Name + "@" + sr.Machine.CPU
		for _, p := range sr.Points {
			got[key] = append(got[key], pt{p.Head.Commit[:1], p.Change})
		}
	}
	assert.Equal(t, map[string][]pt{
		"BenchmarkA@Other CPU": {{"b", 0.04}},
		"BenchmarkA@Test CPU":  {{"b", 0.01}, {"c", 0.02}, {"d", 0.10}},
		"BenchmarkB@Test CPU":  {{"d", 0}},
	}, got)
	require.Len(t, set.Series, 3)
	assert.Equal(t, "Other CPU", set.Series[0].Machine.CPU, "series sorted by id, unit, then machine")
	assert.Equal(t, SettingsHash(report('a', 'b', 1, 0, nil).Settings), set.Series[1].SettingsHash)

	set, err = s.Series(ctx, Query{Baseline: "xxxx", Benchmarks: []string{"BenchmarkA", "example.com/m.BenchmarkZ"}})
	require.NoError(t, err)
	require.Len(t, set.Series, 1)
	assert.Equal(t, commit('y'), set.Series[0].Points[0].Head.Commit)
	assert.Equal(t, []string{"example.com/m.BenchmarkZ"}, set.Unmatched)

	_, err = s.Series(ctx, Query{Baseline: "f00"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no stored comparison has base f00; the stored bases are aaaaaaaaaaaa, xxxxxxxxxxxx")

	gi, err := os.ReadFile(filepath.Join(filepath.Dir(s.Path()), ".gitignore"))
	require.NoError(t, err)
	assert.Equal(t, "*\n", string(gi))
}

func TestSeriesEmpty(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	_, err := s.Series(ctx, Query{})
	assert.ErrorIs(t, err, ErrEmpty)
	_, err = s.Add(ctx, report('a', 'a', 0, 0.01, map[string]float64{"BenchmarkA": 0}), testMachine)
	require.NoError(t, err)
	_, err = s.Series(ctx, Query{})
	assert.ErrorIs(t, err, ErrEmpty, "A/A comparisons alone make no series")
}

func TestAddKeepsEveryStatus(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	r := report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkA": 0.05})
	r.Results = append(r.Results,
		compare.Result{ID: "example.com/m.BenchmarkNew", Package: "example.com/m", Name: "BenchmarkNew", Unit: "sec/op", Status: compare.Added},
		compare.Result{ID: "example.com/x.BenchmarkX", Package: "example.com/x", Name: "BenchmarkX", Status: compare.BuildFailed, Side: "head", Error: "undefined: y"},
		compare.Result{ID: "example.com/m.BenchmarkNoData", Package: "example.com/m", Name: "BenchmarkNoData", Status: compare.Skipped, Side: "both", Error: "n_test.go:9: test data not found"})
	id, err := s.Add(ctx, r, testMachine)
	require.NoError(t, err)
	var statuses string
	require.NoError(t, s.db.QueryRowContext(ctx, `SELECT group_concat(status || ':' || (change IS NULL), ',') FROM (SELECT * FROM results WHERE comparison_id = ? ORDER BY bench_id)`, id).Scan(&statuses))
	assert.Equal(t, "compared:0,added:1,skipped:1,build-failed:1", statuses)
	set, err := s.Series(ctx, Query{})
	require.NoError(t, err)
	require.Len(t, set.Series, 1, "only compared results make points")
}

func TestMigrateFromV1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	fixture, err := os.ReadFile("testdata/v1.sql")
	require.NoError(t, err)
	raw, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = raw.ExecContext(ctx, string(fixture))
	require.NoError(t, err)
	require.NoError(t, raw.Close())

	s := open(t, path)
	v, err := s.version(ctx)
	require.NoError(t, err)
	assert.Equal(t, SchemaVersion, v)
	require.NoError(t, s.Check(ctx))

	set, err := s.Series(ctx, Query{})
	require.NoError(t, err, "the A/A comparison was recognised when the aa flag was backfilled")
	assert.Equal(t, commit('a'), set.Baseline.Commit)
	require.Len(t, set.Series, 1)
	sr := set.Series[0]
	assert.Equal(t, SettingsHash(compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Confidence: 0.99, Resamples: 10000}), sr.SettingsHash, "settings hash backfilled from the stored settings")
	require.Len(t, sr.Points, 2)
	assert.Equal(t, 0.10, sr.Points[1].Change)
	assert.Equal(t, benchstats.DefiniteRegression, sr.Points[1].Verdict)

	insts, err := s.Instabilities(ctx, Filter{Machine: &testMachine})
	require.NoError(t, err)
	require.Len(t, insts, 1)
	assert.InDelta(t, 0.04, insts[0].Widths[0], 1e-12)

	// A migrated database takes new comparisons, and reopening it is a
	// no-op.
	_, err = s.Add(ctx, report('a', 'e', 9, 0.01, map[string]float64{"BenchmarkA": 0.2}), testMachine)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	s = open(t, path)
	set, err = s.Series(ctx, Query{})
	require.NoError(t, err)
	assert.Len(t, set.Series[0].Points, 3)
}

func TestOpenNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s := open(t, path)
	_, err := s.db.ExecContext(ctx, `UPDATE schema_version SET version = 99`)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	_, err = Open(ctx, path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("schema version 99 is newer than this mbopt's %d: update mbopt", SchemaVersion))

	junk := filepath.Join(t.TempDir(), "junk.db")
	require.NoError(t, os.WriteFile(junk, []byte(strings.Repeat("not a database ", 100)), 0o666))
	_, err = Open(ctx, junk)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "junk.db")
}

// The helper processes of the tests below: the test binary re-executed
// with historyWriterModeEnv set to the mode and historyWriterPathEnv to
// the database's absolute path. They are two variables, not one to split:
// an earlier version split "MODE PATH" at the first space, so "add 1
// /tmp/…/h.db" became the mode "add" and the relative path "1 /tmp/…/h.db",
// and the helpers wrote databases into the source tree.
const (
	historyWriterModeEnv = "MBOPT_HISTORY_TEST_WRITER"
	historyWriterPathEnv = "MBOPT_HISTORY_TEST_WRITER_PATH"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(historyWriterModeEnv); mode != "" {
		path := os.Getenv(historyWriterPathEnv)
		if !filepath.IsAbs(path) {
			fmt.Fprintf(os.Stderr, "%s=%q: want an absolute path (a test's temporary directory)\n", historyWriterPathEnv, path)
			os.Exit(2)
		}
		os.Exit(writer(mode, path))
	}
	before, err := sourceFiles()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	after, err := sourceFiles()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, f := range after {
		if !slices.Contains(before, f) {
			fmt.Fprintf(os.Stderr, "FAIL: the tests left %q in the source tree; write into t.TempDir()\n", f)
			code = 1
		}
	}
	os.Exit(code)
}

// sourceFiles lists the files below the package's directory.
func sourceFiles() ([]string, error) {
	var files []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	return files, err
}

// writer is the helper process: "add N" adds N comparisons of
// resultsPerComparison results; "hang" adds one, then starts a second and
// stops halfway through it, creating path+".mid" and sleeping until killed.
func writer(mode, path string) int {
	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var n int
	switch {
	case mode == "hang":
		n = 2
		calls := 0
		testHookMidAdd = func() {
			if calls++; calls == 2 {
				if err := os.WriteFile(path+".mid", nil, 0o666); err != nil {
					panic(err)
				}
				time.Sleep(time.Hour)
			}
		}
	default:
		if _, err := fmt.Sscanf(mode, "add %d", &n); err != nil {
			fmt.Fprintln(os.Stderr, "bad mode", mode)
			return 2
		}
	}
	for i := range n {
		if _, err := s.Add(ctx, bigReport(i), testMachine); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

const resultsPerComparison = 500

func bigReport(i int) *compare.Report {
	changes := map[string]float64{}
	for j := range resultsPerComparison {
		changes[fmt.Sprintf("Benchmark%04d", j)] = 0.001 * float64(j%7)
	}
	return report('a', byte('b'+i%20), i, 0.01, changes)
}

func helper(t *testing.T, mode, path string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	require.True(t, filepath.IsAbs(path), "helper %q: want an absolute path", path)
	cmd.Env = append(os.Environ(), historyWriterModeEnv+"="+mode, historyWriterPathEnv+"="+path)
	cmd.Stderr = os.Stderr
	return cmd
}

// comparisons returns the number of comparisons and, for each, its number
// of results.
func comparisons(t *testing.T, s *Store) (int, []int) {
	t.Helper()
	rows, err := s.db.Query(`SELECT count(r.bench_id) FROM comparisons c LEFT JOIN results r ON r.comparison_id = c.id GROUP BY c.id ORDER BY c.id`)
	require.NoError(t, err)
	defer rows.Close()
	var counts []int
	for rows.Next() {
		var n int
		require.NoError(t, rows.Scan(&n))
		counts = append(counts, n)
	}
	require.NoError(t, rows.Err())
	return len(counts), counts
}

func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	// Create the database first, so the writers race on the data, not on
	// the schema (TestConcurrentCreate covers that).
	open(t, path).Close()
	const each = 5
	// Two processes and two goroutines of this one, each with its own
	// connection, write at once.
	var cmds []*exec.Cmd
	for range 2 {
		cmd := helper(t, fmt.Sprintf("add %d", each), path)
		require.NoError(t, cmd.Start())
		cmds = append(cmds, cmd)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for g := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(context.Background(), path)
			if err != nil {
				errs[g] = err
				return
			}
			defer s.Close()
			for i := range each {
				if _, err := s.Add(context.Background(), bigReport(i), testMachine); err != nil {
					errs[g] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, cmd := range cmds {
		require.NoError(t, cmd.Wait())
	}
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	s := open(t, path)
	n, counts := comparisons(t, s)
	assert.Equal(t, 4*each, n, "every writer's comparisons landed")
	for i, c := range counts {
		assert.Equal(t, resultsPerComparison, c, "comparison %d", i+1)
	}
	require.NoError(t, s.Check(context.Background()))
}

func TestConcurrentCreate(t *testing.T) {
	// Two processes create and migrate the same new database at once.
	path := filepath.Join(t.TempDir(), "h.db")
	var cmds []*exec.Cmd
	for range 2 {
		cmd := helper(t, "add 1", path)
		require.NoError(t, cmd.Start())
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		require.NoError(t, cmd.Wait())
	}
	s := open(t, path)
	n, _ := comparisons(t, s)
	assert.Equal(t, 2, n)
}

func TestKillMidWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	cmd := helper(t, "hang", path)
	require.NoError(t, cmd.Start())
	// Wait until the writer is halfway through its second comparison.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(path + ".mid"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the writer never reached the middle of its second comparison")
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	err := cmd.Wait()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "killed")

	s := open(t, path)
	require.NoError(t, s.Check(context.Background()))
	n, counts := comparisons(t, s)
	assert.Equal(t, 1, n, "the first comparison is whole, the killed one absent")
	assert.Equal(t, []int{resultsPerComparison}, counts)
	// The database takes writes again.
	_, err = s.Add(context.Background(), bigReport(5), testMachine)
	require.NoError(t, err)
}
