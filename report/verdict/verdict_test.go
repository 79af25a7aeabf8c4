package verdict_test

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/report/verdict"
	"github.com/mbopt/mbopt/testkit/golden"
)

const fixtureModule = "example.com/tinytsdb"

// uglyName is a sub-benchmark name of more than 100 characters with every
// character that Markdown, annotations or a table could trip over.
const uglyName = "BenchmarkCompactLevels/levels=8/block_size=4096/codec=zstd|lz4/values=`raw`_<int64>*/workers=16%/retention=720h,keep:all"

// result builds a compared result of the fixture module.
func result(pkg, name, unit string, change, lo, hi float64, v benchstats.Verdict, im *callgraph.Impact) compare.Result {
	return compare.Result{
		ID: pkg + "." + name, Package: pkg, Name: name, Unit: unit, Status: compare.Compared,
		Estimate: &benchstats.Estimate{
			Change: change, CI: benchstats.Interval{Low: lo, High: hi},
			BaseMedian: 1000, HeadMedian: 1000 * (1 + change), BaseN: 45, HeadN: 45,
		},
		Instability: hi - lo, Verdict: v, PValue: 0.0012, Trials: 3, Impact: im,
	}
}

func impact(attributed, flat float64, fns ...string) *callgraph.Impact {
	return &callgraph.Impact{Attributed: attributed, Flat: flat, Functions: fns}
}

func settings() compare.Settings {
	return compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Seed: 42, Threshold: 0.01, Confidence: 0.99, Resamples: 10000}
}

var (
	baseRev = compare.Revision{Spec: "origin/main (merge-base)", Commit: "0123456789abcdef0123456789abcdef01234567",
		Time: time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC), Subject: "storage: faster block index"}
	headRev = compare.Revision{Spec: "HEAD", Commit: "fedcba9876543210fedcba9876543210fedcba98",
		Time: time.Date(2025, 3, 15, 17, 2, 0, 0, time.FixedZone("CET", 3600)), Subject: "query: cache parsed plans"}
)

// compareFixtures are hand-built reports covering every verdict and
// status, with and without impact, a dirty worktree head, notes and
// until-stable savings.
func compareFixtures() map[string]*compare.Report {
	m := fixtureModule
	st := settings()
	st.UntilStable = 0.02
	st.Benchmem = true
	dirtyHead := headRev
	dirtyHead.Spec, dirtyHead.Dirty = "worktree", true
	full := &compare.Report{
		Schema: compare.SchemaVersion, Module: m, Base: baseRev, Head: dirtyHead, Settings: st,
		Results: []compare.Result{
			result(m+"/storage", "BenchmarkSearch", "sec/op", 0.123, 0.101, 0.146, benchstats.DefiniteRegression,
				impact(0.34, 0.412, m+"/storage.(*Index).Search", m+"/storage.(*block).find")),
			result(m+"/query", "BenchmarkQuery", "sec/op", 0.031, 0.004, 0.058, benchstats.PotentialRegression,
				impact(0.637, 0.765, m+"/query.Run")),
			result(m+"/internal/storage/engine/compaction", uglyName, "sec/op", -0.298, -0.331, -0.262, benchstats.DefiniteImprovement,
				impact(0.021, 0.149)),
			result(m+"/query", "BenchmarkQuery", "B/op", -0.052, -0.094, 0.002, benchstats.PotentialImprovement,
				impact(0.637, 0.765, m+"/query.Run")),
			result("github.com/other/lib", "BenchmarkHash", "sec/op", 0.002, -0.011, 0.014, benchstats.Unchanged, nil),
			result(m, "BenchmarkRoot", "sec/op", -0.0004, -0.006, 0.005, benchstats.Unchanged, impact(0, 0.004)),
			{ID: m + "/httpapi.BenchmarkHealth", Package: m + "/httpapi", Name: "BenchmarkHealth", Unit: "sec/op", Status: compare.Added},
			{ID: m + "/backup.BenchmarkRestore", Package: m + "/backup", Name: "BenchmarkRestore", Unit: "sec/op", Status: compare.Removed},
			{ID: m + "/encoding.BenchmarkParse", Package: m + "/encoding", Name: "BenchmarkParse", Unit: "sec/op", Status: compare.BuildFailed,
				Side: "head", Error: "encoding/parse.go:12:2: undefined: lexer\nencoding/parse.go:14:9: too many errors"},
			{ID: m + "/storage.BenchmarkRetention", Package: m + "/storage", Name: "BenchmarkRetention", Unit: "sec/op", Status: compare.Failed,
				Side: "base", Error: "signal: killed (timed out after 10m0s)"},
		},
		Raw:   map[string]string{"base": "base.txt", "head": "head.txt"},
		Wall:  4*time.Minute + 12*time.Second + 300*time.Millisecond,
		Saved: 1*time.Minute + 31*time.Second,
		Notes: []string{"base: the merge-base of HEAD with origin/main (origin/HEAD)", "head: the worktree has uncommitted changes"},
	}
	quiet := &compare.Report{
		Schema: compare.SchemaVersion, Module: m, Base: baseRev, Head: headRev, Settings: settings(),
		Results: []compare.Result{
			result(m+"/storage", "BenchmarkSearch", "sec/op", 0.004, -0.003, 0.012, benchstats.Unchanged, nil),
			result(m+"/query", "BenchmarkQuery", "sec/op", -0.007, -0.02, 0.006, benchstats.Unchanged, nil),
		},
		Wall: 38 * time.Second,
	}
	nothing := &compare.Report{
		Schema: compare.SchemaVersion, Module: m, Base: baseRev, Head: headRev, Settings: settings(),
		Results: []compare.Result{
			{ID: m + "/storage.BenchmarkSearch", Package: m + "/storage", Name: "BenchmarkSearch", Unit: "sec/op", Status: compare.BuildFailed,
				Side: "base", Error: "go: cannot find main module"},
		},
	}
	// judged is a report whose verdicts compare's judgement took: each
	// result has its threshold and minimum detectable effect, one had too
	// few samples, and the false-discovery-rate correction is recorded. It
	// has a potential change and no definite one (the headline says so
	// first).
	mde := func(x float64) *float64 { return &x }
	judgedResult := func(r compare.Result, t float64, basis benchstats.Basis, m float64) compare.Result {
		r.Threshold, r.ThresholdBasis, r.MinDetectableEffect, r.PAdjusted = t, basis, mde(m), 0.4
		return r
	}
	counted := judgedResult(result(m+"/storage", "BenchmarkSearch", "instructions/op", 0.0002, 0.0001, 0.0003, benchstats.Unchanged, nil), 0.01, benchstats.BasisFixed, 0.0001)
	counted.Caveats = []string{"less stable: starts goroutines"}
	few := result(m+"/storage", "BenchmarkCompact", "sec/op", 0.21, 0.05, 0.38, benchstats.Unchanged, nil)
	few.Estimate.BaseN, few.Estimate.HeadN, few.TooFew = 4, 4, true
	judged := &compare.Report{
		Schema: compare.SchemaVersion, Module: m, Base: baseRev, Head: baseRev, Settings: settings(),
		Results: []compare.Result{
			judgedResult(result(m+"/query", "BenchmarkQuery", "sec/op", 0.121, 0.031, 0.135, benchstats.PotentialRegression, nil), 0.078, benchstats.BasisDynamic, 0.09),
			counted,
			judgedResult(few, 0.25, benchstats.BasisDynamic, 0.17),
		},
		FalseAlarms: &compare.FalseAlarms{FDR: 0.05, Tests: 2, Expected: 0.05, Uncorrected: 0.02},
		Wall:        51 * time.Second,
	}
	judged.Settings.FDR = 0.05
	return map[string]*compare.Report{"full": full, "quiet": quiet, "nothing": nothing, "judged": judged}
}

// TestGolden writes every fixture as text and as Markdown and checks each
// against its golden file (../testdata/compare-NAME.txt, .md); writing it
// again gives the same bytes.
func TestGolden(t *testing.T) {
	for _, format := range []struct {
		ext   string
		write func(io.Writer, *compare.Report) error
	}{{"txt", verdict.WriteText}, {"md", verdict.WriteMarkdown}} {
		for name, r := range compareFixtures() {
			t.Run(format.ext+"/"+name, func(t *testing.T) {
				var b bytes.Buffer
				require.NoError(t, format.write(&b, r))
				golden.Check(t, filepath.Join("..", "testdata", "compare-"+name+"."+format.ext), b.Bytes())
				var again bytes.Buffer
				require.NoError(t, format.write(&again, r))
				assert.Equal(t, b.String(), again.String(), "the same report gives the same bytes")
			})
		}
	}
}

// TestTextManyRows checks that a table of many results with long
// names stays aligned: in each table every row's unit is in the same column and no
// line of a table is longer than the figures plus the wrapped name.
func TestTextManyRows(t *testing.T) {
	r := &compare.Report{Schema: compare.SchemaVersion, Module: fixtureModule, Base: baseRev, Head: headRev, Settings: settings()}
	for i := range 40 {
		name := "BenchmarkX"
		for range i % 7 {
			name += "/case=" + strings.Repeat("y", 3*i)
		}
		v := benchstats.Verdict(i % 5)
		r.Results = append(r.Results, result(fixtureModule+"/p", fmt.Sprintf("%s/%d", name, i), "sec/op", 0.01*float64(i%5), -0.01, 0.02, v, impact(0.01*float64(i), 0.02*float64(i))))
	}
	var b bytes.Buffer
	require.NoError(t, verdict.WriteText(&b, r))
	unitEnd := -1
	rows := 0
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasSuffix(line, "unit  benchmark") { // each table aligns its own columns
			unitEnd = -1
		}
		i := strings.Index(line, "sec/op  ")
		if i < 0 || !strings.HasPrefix(line, "  ") {
			continue
		}
		rows++
		if unitEnd < 0 {
			unitEnd = i
		}
		assert.Equal(t, unitEnd, i, "the unit column moved: %q", line)
		name := line[i+len("sec/op  "):]
		assert.LessOrEqual(t, utf8.RuneCountInString(name), 70, "a long name was not wrapped: %q", line)
	}
	assert.Equal(t, 40, rows)
}

func TestGitHubGolden(t *testing.T) {
	for name, r := range compareFixtures() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			s, err := verdict.WriteGitHub(&b, r)
			require.NoError(t, err)
			golden.Check(t, filepath.Join("..", "testdata", "compare-"+name+".github"), b.Bytes())
			var md bytes.Buffer
			require.NoError(t, verdict.WriteMarkdown(&md, r))
			assert.Equal(t, md.String(), string(s.Markdown), "the step summary is the Markdown comment")
			assert.Empty(t, s.Suite)
		})
	}
}

// GitHub shows at most 10 annotations of a level per step: beyond that,
// the tenth counts the rest, and the levels keep their order.
func TestGitHubCapsAnnotations(t *testing.T) {
	r := &compare.Report{Schema: compare.SchemaVersion, Module: fixtureModule, Base: baseRev, Head: headRev, Settings: settings()}
	for i := range 12 {
		r.Results = append(r.Results, result(fixtureModule+"/p", fmt.Sprintf("BenchmarkR%02d", i), "sec/op", 0.2, 0.1, 0.3, benchstats.DefiniteRegression, nil))
	}
	r.Results = append(r.Results, result(fixtureModule+"/p", "BenchmarkI", "sec/op", -0.2, -0.3, -0.1, benchstats.DefiniteImprovement, nil))
	var b bytes.Buffer
	_, err := verdict.WriteGitHub(&b, r)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 11)
	for _, l := range lines[:10] {
		assert.True(t, strings.HasPrefix(l, "::error title="), l)
	}
	assert.True(t, strings.HasPrefix(lines[8], "::error title=+20.0%25 sec/op%3A p.BenchmarkR08::"), lines[8])
	assert.Equal(t, "::error title=3 more::3 more benchmarks at this level: see the job's summary", lines[9])
	assert.True(t, strings.HasPrefix(lines[10], "::notice title=-20.0%25 sec/op%3A p.BenchmarkI::"), lines[10])
}

// TestNotComparedCountsBenchmarks: with --benchmem an added benchmark has
// three units; the tally and the table count it once (issue 21 item 7).
func TestNotComparedCountsBenchmarks(t *testing.T) {
	m := fixtureModule
	r := &compare.Report{Schema: compare.SchemaVersion, Module: m, Base: baseRev, Head: headRev, Settings: settings()}
	r.Results = append(r.Results, result(m+"/storage", "BenchmarkSearch", "sec/op", 0.001, -0.01, 0.01, benchstats.Unchanged, nil))
	for _, name := range []string{"BenchmarkA", "BenchmarkB", "BenchmarkC"} {
		for _, unit := range []string{"sec/op", "B/op", "allocs/op"} {
			r.Results = append(r.Results, compare.Result{ID: m + "/p." + name, Package: m + "/p", Name: name, Unit: unit, Status: compare.Added})
		}
	}
	var b bytes.Buffer
	require.NoError(t, verdict.WriteText(&b, r))
	assert.Contains(t, b.String(), "In all: 1 unchanged; 3 added.")
	assert.Equal(t, 1, strings.Count(b.String(), "p.BenchmarkA"), b.String())
	b.Reset()
	require.NoError(t, verdict.WriteMarkdown(&b, r))
	assert.Equal(t, 1, strings.Count(b.String(), "p.BenchmarkA"), b.String())
}
