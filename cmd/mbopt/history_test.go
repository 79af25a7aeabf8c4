package main

import (
	"bytes"
	"context"
	"crypto/sha1"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/testkit/dirtest"
	"github.com/mbopt/mbopt/testkit/golden"
)

var historyPlots = flag.String("history-plots", "", "also write the history test plots into this directory, to look at")

// longHistoryID is a benchmark id long enough to test the plots' layout.
const longHistoryID = "example.com/tinytsdb/internal/storage/engine.BenchmarkCompactionWithAnExtremelyLongName/size=1048576/parallel=true/codec=zstd"

// historyFixture writes a history database with 16 commits compared
// against one base on one machine: BenchmarkQuery jumps by 12% at commit 8
// and has three A/A results (so its initial threshold is calibrated);
// BenchmarkWrite slowly grows by 0.5% per commit (a trend); the long-named
// benchmark is noise around 0 with wide intervals, and its swings at
// commits 2 and 3 are false alarms while its threshold warms up.
func historyFixture(t *testing.T) string {
	t.Helper()
	return historyFixtureAt(t, filepath.Join(t.TempDir(), "history.db"))
}

// historyFixtureAt writes the history of historyFixture at path.
func historyFixtureAt(t *testing.T, path string) string {
	t.Helper()
	ctx := context.Background()
	st, err := history.Open(ctx, path)
	require.NoError(t, err)
	defer st.Close()
	m := history.Machine{GOOS: "linux", GOARCH: "amd64", CPU: "Fixture CPU @ 2.0GHz", GoVersion: "go1.26.8"}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	hash := func(i int) string { return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint("commit ", i)))) }
	base := compare.Revision{Spec: "main", Commit: hash(0), Time: t0, Subject: "release 1.0"}
	settings := compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Seed: 1, Threshold: 0.01, Confidence: 0.99, Resamples: 10000}
	result := func(id string, change, half float64) compare.Result {
		pkg, name, _ := strings.Cut(id, ".Benchmark")
		e := &benchstats.Estimate{Change: change, CI: benchstats.Interval{Low: change - half, High: change + half}, BaseMedian: 1e-3, HeadMedian: 1e-3 * (1 + change), BaseN: 45, HeadN: 45}
		return compare.Result{ID: id, Package: pkg, Name: "Benchmark" + name, Unit: "sec/op", Status: compare.Compared,
			Estimate: e, Instability: e.Instability(), Verdict: benchstats.Classify(*e, 0.01, false), Trials: 3}
	}
	noise := []float64{0.004, -0.03, 0.025, -0.018, 0.006, 0.01, -0.004, 0.0, -0.008, 0.014, -0.006, 0.002, 0.008, -0.01, 0.004, -0.002}
	for i := 1; i <= 16; i++ {
		q := 0.002 * float64(i%3-1)
		if i >= 8 {
			q += 0.12
		}
		r := &compare.Report{Schema: compare.SchemaVersion, Module: "example.com/tinytsdb", Base: base,
			Head:     compare.Revision{Spec: "HEAD", Commit: hash(i), Time: t0.Add(time.Duration(i) * time.Hour), Subject: fmt.Sprintf("commit %d", i)},
			Settings: settings,
			Results: []compare.Result{
				result(longHistoryID, noise[i-1], 0.04),
				result("example.com/tinytsdb/query.BenchmarkQuery", q, 0.008),
				result("example.com/tinytsdb/storage.BenchmarkWrite", 0.005*float64(i), 0.002),
			}}
		_, err := st.Add(ctx, r, m)
		require.NoError(t, err)
	}
	for i, half := range []float64{0.01, 0.012, 0.008} {
		aa := compare.Revision{Spec: "HEAD", Commit: hash(16), Time: t0.Add(16 * time.Hour), Subject: "commit 16"}
		r := &compare.Report{Schema: compare.SchemaVersion, Module: "example.com/tinytsdb", Base: aa, Head: aa, Settings: settings,
			Results: []compare.Result{result("example.com/tinytsdb/query.BenchmarkQuery", 0.001*float64(i), half)}}
		_, err := st.Add(ctx, r, m)
		require.NoError(t, err)
	}
	return path
}

func TestHistoryGolden(t *testing.T) {
	db := historyFixture(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"history.txt", nil},
		{"history.md", []string{"--format", "markdown"}},
		{"history.json", []string{"--format", "json"}},
		{"history-query-given.txt", []string{"BenchmarkQuery", "--initial-threshold", "0.2"}},
		{"history-instability.txt", []string{"--instability"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(t, append([]string{"history", "--history", db}, tc.args...)...)
			require.Equal(t, 0, code, errOut)
			golden.Check(t, filepath.Join("testdata", "golden", tc.name), []byte(out))
			golden.Check(t, filepath.Join("testdata", "golden", tc.name+".stderr"), []byte(errOut))
		})
	}
}

func TestHistoryDetections(t *testing.T) {
	db := historyFixture(t)
	code, out, errOut := run(t, "history", "--history", db, "--format", "json")
	require.Equal(t, 0, code, errOut)
	var doc struct {
		Series []struct {
			ID              string `json:"id"`
			ThresholdSource string `json:"threshold_source"`
			Detections      []struct {
				Index    int    `json:"index"`
				Kind     string `json:"kind"`
				Definite bool   `json:"definite"`
			} `json:"detections"`
		} `json:"series"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	got := map[string][]string{}
	sources := map[string]string{}
	for _, s := range doc.Series {
		_, name, _ := strings.Cut(s.ID, ".Benchmark")
		sources[name] = s.ThresholdSource
		for _, d := range s.Detections {
			def := "potential"
			if d.Definite {
				def = "definite"
			}
			got[name] = append(got[name], fmt.Sprintf("%d %s %s", d.Index, def, d.Kind))
		}
	}
	// The query's jump at commit 8 (index 7) is found, definite, once;
	// the window restarts there, so no trend follows.
	assert.Equal(t, []string{"7 definite jump", "7 definite trend"}, got["Query"])
	// The write benchmark's 0.5% steps are no jump, but a trend.
	for _, d := range got["Write"] {
		assert.Contains(t, d, "trend")
	}
	assert.NotEmpty(t, got["Write"])
	// The calibrated benchmark uses its own threshold; the others the
	// suite threshold of the A/A results.
	assert.Equal(t, "calibrated", sources["Query"])
	assert.Equal(t, "suite", sources["Write"])
}

func TestHistoryPlots(t *testing.T) {
	db := historyFixture(t)
	dir := t.TempDir()
	if *historyPlots != "" {
		dir = *historyPlots
	}
	code, _, errOut := run(t, "history", "--history", db, "--plot", dir)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "mbopt: wrote 3 plots into "+dir)
	code, _, errOut = run(t, "history", "--history", db, "--instability", "--plot", dir)
	require.Equal(t, 0, code, errOut)
	names := dirtest.Names(t, dir)
	assert.ElementsMatch(t, []string{
		"example.com_tinytsdb_internal_storage_engine.BenchmarkCompactionWithAnExtremelyLongName_size=1048576_parallel=true_codec=zstd-sec_op.svg",
		"example.com_tinytsdb_query.BenchmarkQuery-sec_op.svg",
		"example.com_tinytsdb_storage.BenchmarkWrite-sec_op.svg",
		"instability.svg",
	}, names)
	svg, err := os.ReadFile(filepath.Join(dir, "example.com_tinytsdb_query.BenchmarkQuery-sec_op.svg"))
	require.NoError(t, err)
	// The x axis names commits by short hash and date (the last always).
	for _, want := range []string{"<svg", "example.com/tinytsdb/query.BenchmarkQuery", "definite jump up", "jump threshold", "99% CI", ">cc53176<", ">2026-03-02<"} {
		assert.Contains(t, string(svg), want)
	}
	long, err := os.ReadFile(filepath.Join(dir, names[0]))
	require.NoError(t, err)
	assert.Contains(t, string(long), "…", "the long id is shortened in the title")
}

func TestHistoryBadInput(t *testing.T) {
	db := historyFixture(t)
	empty := filepath.Join(t.TempDir(), "empty.db")
	st, err := history.Open(context.Background(), empty)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--history", filepath.Join(t.TempDir(), "none.db")}, "none.db: no history database; mbopt compare writes one"},
		{[]string{"--history", empty}, "the history holds no comparison of two different revisions; run mbopt compare"},
		{[]string{"--history", db, "--format", "csv"}, "--format: invalid value \"csv\": valid values are {text|json|markdown}"},
		{[]string{"--history", db, "--factor", "0"}, "--factor is 0; it must be positive"},
		{[]string{"--history", db, "--window", "1"}, "--window is 1; it must be at least 2"},
		{[]string{"--history", db, "--fixed", "0.2,-0.2"}, "--fixed 0.2,-0.2: want LOWER,UPPER"},
		{[]string{"--history", db, "--baseline", "ffff"}, "--baseline: history: " + db + ": no stored comparison has base ffff; the stored bases are 686780cab026"},
		{[]string{"--history", db, "--unit", "B/op"}, "no series against baseline 686780cab0 matches the arguments and --unit \"B/op\""},
		{[]string{"--history", db, "BenchmarkNope"}, "BenchmarkNope: no stored result against baseline"},
		{[]string{"--history", empty, "--instability"}, "no A/A comparison stored"},
	} {
		code, _, errOut := run(t, append([]string{"history"}, tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}

// TestHistoryOddPaths: --history and -o take paths with characters a URI
// gives a meaning to; each names its own file (issue 25 item 1).
func TestHistoryOddPaths(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("testdata", "golden", "history.txt"))
	require.NoError(t, err)
	for _, name := range []string{"h#1.db", "h?x=1.db", "job%2Fmain/h.db", "my history/h 1.db", "Geschichte-ä/履歴.db"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			db := historyFixtureAt(t, filepath.Join(dir, name))
			out := db + " out#?%2F.txt"
			code, _, errOut := run(t, "history", "--history", db, "-o", out)
			require.Equal(t, 0, code, errOut)
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

// TestHistoryRefusesNonHistory: history reads; given a file that is not
// an mbopt history it says so and leaves the file as it was (issue 25
// item 9: it gave a foreign database mbopt's tables and WAL mode, and made
// an empty file a history).
func TestHistoryRefusesNonHistory(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(path string) error
		want string
	}{
		{"empty file", func(p string) error { return os.WriteFile(p, nil, 0o666) }, "not an mbopt history database: the file is empty; mbopt compare writes a history"},
		{"foreign database", func(p string) error {
			db, err := sql.Open("sqlite", p)
			if err != nil {
				return err
			}
			defer db.Close()
			_, err = db.Exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'a')`)
			return err
		}, "not an mbopt history database: an SQLite database without the table comparisons (its tables: users), someone else's; give another --history file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "app.db")
			require.NoError(t, tc.make(path))
			old := time.Now().Add(-time.Hour).Truncate(time.Second)
			require.NoError(t, os.Chtimes(path, old, old))
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			for _, args := range [][]string{{"history"}, {"history", "--instability"}} {
				code, _, errOut := run(t, append(args, "--history", path)...)
				assert.Equal(t, 2, code, errOut)
				assert.Equal(t, "mbopt: --history "+path+": "+tc.want+"\n", errOut)
			}
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(data, after), "the file's bytes are unchanged")
			fi, err := os.Stat(path)
			require.NoError(t, err)
			assert.Equal(t, old, fi.ModTime(), "the file's modification time is unchanged")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Len(t, entries, 1, "no -wal or -shm file beside it")
		})
	}
}

// TestHistoryOutputIsInput: -o naming the history database, or one of
// the files SQLite keeps beside it, is refused and the history kept
// (issue 25 item 2: it was overwritten with the report, exit 0).
func TestHistoryOutputIsInput(t *testing.T) {
	dir := t.TempDir()
	db := historyFixtureAt(t, filepath.Join(dir, "self#1.db"))
	require.NoError(t, os.Symlink(db, filepath.Join(dir, "link.db")))
	before, err := os.ReadFile(db)
	require.NoError(t, err)
	for _, out := range []string{db, db + "-wal", db + "-shm", filepath.Join(dir, "link.db"), filepath.Join(dir, ".", "self#1.db")} {
		code, stdout, errOut := run(t, "history", "--history", db, "-o", out)
		assert.Equal(t, cli.BadInput, code, "-o %s: %s", out, errOut)
		assert.Empty(t, stdout)
		assert.Contains(t, errOut, "-o "+out+" is the input ", "-o %s", out)
	}
	after, err := os.ReadFile(db)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "the history is intact")
	_, err = os.Stat(db + "-wal")
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing written as the -wal file")
}

// TestHistoryLowDefects: the history command's low-severity defects of
// issue 25, each fixed.
func TestHistoryLowDefects(t *testing.T) {
	exec := func(t *testing.T, db, stmt string) {
		t.Helper()
		h, err := sql.Open("sqlite", db)
		require.NoError(t, err)
		defer h.Close()
		_, err = h.Exec(stmt)
		require.NoError(t, err)
	}
	t.Run("a non-finite stored value is left out, not fatal", func(t *testing.T) {
		db := historyFixture(t)
		exec(t, db, `UPDATE results SET change = 9e999 WHERE bench_id LIKE '%BenchmarkWrite' AND comparison_id = 4`)
		exec(t, db, `UPDATE results SET change = 1e308, ci_low = 1e308, ci_high = 1e308 WHERE bench_id LIKE '%BenchmarkWrite' AND comparison_id = 5`)
		code, out, errOut := run(t, "history", "--history", db)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, "example.com/tinytsdb/storage.BenchmarkWrite  sec/op")
		assert.Contains(t, out, "(comparison 4): change +Inf is not finite")
		assert.Contains(t, out, "(comparison 5): change 1e+308 is beyond any measurement")
		assert.Contains(t, errOut, "mbopt: warning: example.com/tinytsdb/storage.BenchmarkWrite (sec/op): the result of comparison 4 at ")
	})
	t.Run("the name compare prints is accepted", func(t *testing.T) {
		db := historyFixture(t)
		code, out, errOut := run(t, "history", "--history", db, "query.BenchmarkQuery", "--format", "json")
		require.Equal(t, 0, code, errOut)
		assert.Empty(t, errOut)
		var doc struct {
			Series []struct {
				ID string `json:"id"`
			} `json:"series"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		require.Len(t, doc.Series, 1)
		assert.Equal(t, "example.com/tinytsdb/query.BenchmarkQuery", doc.Series[0].ID)
	})
	t.Run("a read error is not labelled --baseline", func(t *testing.T) {
		db := historyFixture(t)
		exec(t, db, `ALTER TABLE results RENAME COLUMN verdict TO verdict_old`)
		code, _, errOut := run(t, "history", "--history", db)
		assert.Equal(t, cli.BadInput, code)
		assert.True(t, strings.HasPrefix(errOut, "mbopt: --history "+db+": "), errOut)
		assert.Contains(t, errOut, "no such column")
		assert.NotContains(t, errOut, "mbopt: --baseline")
	})
	t.Run("--no-history with --history is refused", func(t *testing.T) {
		code, _, errOut := run(t, "compare", "--no-history", "--history", filepath.Join(t.TempDir(), "h.db"))
		assert.Equal(t, cli.BadInput, code)
		assert.Contains(t, errOut, "--no-history and --history")
	})
}

// TestHistoryHTML writes the site of the fixture history with the three
// detectors and a commit URL, and again over the first one. stdout carries
// the text history only when --format or -o asks for it: the site is the
// output (issue 31: history --html also printed the whole text history).
func TestHistoryHTML(t *testing.T) {
	db := historyFixture(t)
	dir := filepath.Join(t.TempDir(), "site")
	for range 2 { // the second run replaces the first site
		code, out, errOut := run(t, "history", "--history", db, "--detector", "jump,trend,edivisive",
			"--commit-url", "https://git.example.com/r/commit/{commit}", "--html", dir)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, "mbopt: wrote the site of 3 series into "+dir+"\n", errOut)
		assert.Empty(t, out, "only what was written is said, on stderr")
	}
	code, out, errOut := run(t, "history", "--history", db, "--detector", "jump,trend,edivisive", "--html", dir, "--format", "text")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "E E-divisive change point", "asked for, the text report names the third detector")
	for _, f := range []string{"index.html", "assets/site.js", "data/index.js", "data/chunk-000.js"} {
		assert.FileExists(t, filepath.Join(dir, f))
	}
	index, err := os.ReadFile(filepath.Join(dir, "data", "index.js"))
	require.NoError(t, err)
	assert.Contains(t, string(index), `"edivisive"`, "the query benchmark's jump is an E-divisive change point too")
	pages, err := os.ReadDir(filepath.Join(dir, "series"))
	require.NoError(t, err)
	assert.Len(t, pages, 3)

	// A file the site would overwrite that no site wrote is refused.
	foreign := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(foreign, "index.html"), []byte("mine"), 0o644))
	code, _, errOut = run(t, "history", "--history", db, "--html", foreign)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--html "+foreign+" holds index.html, which the site would overwrite and no earlier mbopt site wrote")
	b, err := os.ReadFile(filepath.Join(foreign, "index.html"))
	require.NoError(t, err)
	assert.Equal(t, "mine", string(b))
}

// TestHistoryHTMLKeepsInputs: a site directory that holds the history
// database and a Pages CNAME keeps both through two --html runs, and the
// --plot figures written into it (issue 31 item 2: --history SITE/history.db
// --html SITE deleted the database, exit 0, and the plots it had just
// reported as written, and a CNAME).
func TestHistoryHTMLKeepsInputs(t *testing.T) {
	site := t.TempDir()
	db := historyFixtureAt(t, filepath.Join(site, "history.db"))
	require.NoError(t, os.WriteFile(filepath.Join(site, "CNAME"), []byte("bench.example.com\n"), 0o644))
	before, err := os.ReadFile(db)
	require.NoError(t, err)
	for range 2 {
		code, _, errOut := run(t, "history", "--history", db, "--html", site, "--plot", site)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, errOut, "mbopt: wrote 3 plots into "+site)
		after, err := os.ReadFile(db)
		require.NoError(t, err, "the history database is still there")
		assert.True(t, bytes.Equal(before, after), "and unchanged")
		cname, err := os.ReadFile(filepath.Join(site, "CNAME"))
		require.NoError(t, err)
		assert.Equal(t, "bench.example.com\n", string(cname))
		assert.FileExists(t, filepath.Join(site, "example.com_tinytsdb_query.BenchmarkQuery-sec_op.svg"), "the plot it reported")
		assert.FileExists(t, filepath.Join(site, "index.html"))
	}
}

func TestHistoryHTMLBadInput(t *testing.T) {
	db := historyFixture(t)
	site := filepath.Join(t.TempDir(), "site")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--detector", "cusum"}, `--detector holds "cusum"; valid detectors are {jump|trend|edivisive}`},
		{[]string{"--detector", ""}, `--detector holds ""; valid detectors are`},
		{[]string{"--commit-url", "https://github.com/o/r/commit/{commit}"}, "--commit-url: it links the commits of --html; give --html DIR"},
		{[]string{"--html", site, "--commit-url", "javascript:alert(1)//{commit}"}, "--commit-url: commit URL \"javascript:alert(1)//{commit}\" must be an http or https URL"},
		{[]string{"--html", site, "--commit-url", "https://github.com/o/r/commit/"}, "has no {commit} for the hash"},
		{[]string{"--html", site, "--instability"}, "--html: --instability writes text, json or plots"},
		{[]string{"--instability", "--format", "markdown"}, "--format markdown: --instability writes text or json"},
		{[]string{"--html", db}, "--html " + db + " is a file, not a directory"},
		// issue 31's low items: an empty directory flag is refused, and a
		// directory that cannot be written is bad input naming the flag and
		// the directory (not Config.Dir, not a temporary file; it exited 1).
		{[]string{"--html", ""}, `--html "": give a directory, such as --html site/`},
		{[]string{"--plot", ""}, `--plot "": give a directory, such as --plot plots/`},
		{[]string{"--plot", filepath.Join(db, "plots")}, "mbopt: --plot " + filepath.Join(db, "plots") + ": cannot write the figures there: not a directory; give a directory you can write"},
		{[]string{"--instability", "--plot", filepath.Join(db, "plots")}, "mbopt: --plot " + filepath.Join(db, "plots") + ": cannot write the figure there: not a directory"},
		{[]string{"--html", filepath.Join(db, "site")}, "mbopt: --html " + filepath.Join(db, "site") + ": cannot write the site there: not a directory; give a directory you can write"},
	} {
		code, _, errOut := run(t, append([]string{"history", "--history", db}, tc.args...)...)
		assert.Equal(t, 2, code, "%v", tc.args)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
		assert.NotContains(t, errOut, ".tmp-", "%v", tc.args)
		assert.NotContains(t, errOut, "Config.", "%v", tc.args)
	}
	assert.NoDirExists(t, site, "nothing written")
	// A directory that exists but cannot be written, even by root.
	if fi, err := os.Stat("/sys/kernel"); err == nil && fi.IsDir() {
		for _, flag := range []string{"--plot", "--html"} {
			code, _, errOut := run(t, "history", "--history", db, flag, "/sys/kernel")
			assert.Equal(t, 2, code, "%s: %s", flag, errOut)
			assert.Contains(t, errOut, "mbopt: "+flag+" /sys/kernel: cannot write the ")
			assert.NotContains(t, errOut, ".tmp-")
		}
	}
}

// TestHistoryShowsEstimate: a comparison stored with its estimated
// application impact (compare's app_impact) shows it in mbopt history's
// text and JSON and on the --html pages' data (issue 30 item 5: the
// history and the site carried only the reference impact).
func TestHistoryShowsEstimate(t *testing.T) {
	db := historyFixture(t)
	ctx := context.Background()
	st, err := history.Open(ctx, db)
	require.NoError(t, err)
	hash := func(i int) string { return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint("commit ", i)))) }
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	e := &benchstats.Estimate{Change: 0.2, CI: benchstats.Interval{Low: 0.19, High: 0.21}, BaseMedian: 1e-3, HeadMedian: 1.2e-3, BaseN: 45, HeadN: 45}
	r := &compare.Report{Schema: compare.SchemaVersion, Module: "example.com/tinytsdb",
		Base:     compare.Revision{Spec: "main", Commit: hash(0), Time: t0, Subject: "release 1.0"},
		Head:     compare.Revision{Spec: "HEAD", Commit: hash(17), Time: t0.Add(17 * time.Hour), Subject: "commit 17"},
		Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Seed: 1, Threshold: 0.01, Confidence: 0.99, Resamples: 10000},
		Results: []compare.Result{{ID: "example.com/tinytsdb/query.BenchmarkQuery", Package: "example.com/tinytsdb/query", Name: "BenchmarkQuery", Unit: "sec/op",
			Status: compare.Compared, Estimate: e, Verdict: benchstats.DefiniteRegression, Trials: 3,
			Culprits:  []culprit.Culprit{{Function: "example.com/tinytsdb/query.scan"}},
			AppImpact: &culprit.AppImpact{Estimate: 0.068, Low: 0.061, High: 0.074, Basis: culprit.BasisFunctions, RelevantShare: 0.9}}},
	}
	_, err = st.Add(ctx, r, history.Machine{GOOS: "linux", GOARCH: "amd64", CPU: "Fixture CPU @ 2.0GHz", GoVersion: "go1.26.8"})
	require.NoError(t, err)
	require.NoError(t, st.Close())

	code, out, errOut := run(t, "history", "--history", db, "BenchmarkQuery")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "estimated application impact +6.8% [+6.1% … +7.4%] from the changed functions, 90.0% of the movement in the application's functions; culprits example.com/tinytsdb/query.scan")
	code, out, errOut = run(t, "history", "--history", db, "BenchmarkQuery", "--format", "json")
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{`"app_impact": 0.068`, `"app_impact_low": 0.061`, `"app_impact_high": 0.074`, `"app_impact_basis": "functions"`} {
		assert.Contains(t, out, want)
	}
	site := filepath.Join(t.TempDir(), "site")
	code, _, errOut = run(t, "history", "--history", db, "--html", site)
	require.Equal(t, 0, code, errOut)
	index, err := os.ReadFile(filepath.Join(site, "data", "index.js"))
	require.NoError(t, err)
	assert.Contains(t, string(index), `"est":[6.8,6.1,7.4,0,16]`, "the latest estimate, in percent, at the 17th commit")
	assert.Contains(t, string(index), `"de":[`, "the detections' estimates")
}
