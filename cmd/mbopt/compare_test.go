package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/counted"
	"github.com/mbopt/mbopt/testkit/need"
)

// compareArgs are short settings for the fixture, in time (the fixture's
// verdicts are about its sec/op; with Valgrind installed the default
// would count instructions). A later --metric overrides it.
var compareArgs = []string{"compare", "--metric", "time", "--trials", "3", "--runs", "2", "--count", "3", "--benchtime", "10ms", "--resamples", "2000"}

// compareEnv is the environment of the mbopt processes of these tests: a
// fresh mbopt cache (XDG_CACHE_HOME under tmp) but the usual Go build
// cache, and CI set, for plain progress lines.
func compareEnv(t *testing.T, tmp string) []string {
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	require.NoError(t, err)
	return append(os.Environ(), "TMPDIR="+tmp, "XDG_CACHE_HOME="+filepath.Join(tmp, "cache"),
		"GOCACHE="+strings.TrimSpace(string(gocache)), "CI=true")
}

// mboptIn runs the mbopt binary in dir with TMPDIR tmp and returns its exit
// status, stdout and stderr.
func mboptIn(t *testing.T, dir, tmp string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(buildMbopt(t), args...)
	cmd.Dir = dir
	cmd.Env = compareEnv(t, tmp)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// TestCompareGateExitCodes counts instructions: its verdicts are what
// it checks, and a time metric's on a loaded CI runner once judged the
// fixture's -30% CPU time "unchanged" (one trial of three under load).
func TestCompareGateExitCodes(t *testing.T) {
	need.Tool(t, "TestCompareGateExitCodes (exit codes of instruction-count verdicts)", "valgrind")
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	tmp := t.TempDir()
	args := append(append([]string{}, compareArgs...), counted.Args(2)...)
	var rep compare.Report
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, cli.Gate},
		{[]string{"--fail-on", "never"}, cli.OK},
		{[]string{"--bench", "Faster", "--fail-on", "any-regression", "--format", "json"}, cli.OK},
		{[]string{"--bench", "Slower", "--fail-on", "any-regression"}, cli.Gate},
	} {
		code, stdout, stderr := mboptIn(t, dir, tmp, append(append([]string{}, args...), tc.args...)...)
		assert.Equal(t, tc.want, code, "%v\nstdout:\n%s\nstderr:\n%s", tc.args, stdout, stderr)
		if tc.want == cli.Gate {
			assert.Contains(t, stderr, "the gate failed on 1 benchmark: "+cmpfixture.Package+"."+cmpfixture.Slower+" (instructions/op)", tc.args)
		}
		if !slices.Contains(tc.args, "json") {
			assert.Contains(t, stdout, "definite ", tc.args)
			// The text report prints the raw files' full paths.
			assert.Contains(t, stdout, "raw results (Go benchmark format, for benchstat): base "+filepath.Join(dir, ".mbopt", "compare"))
			continue
		}
		// JSON: the documented schema.
		require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
		assert.Equal(t, compare.SchemaVersion, rep.Schema)
		require.Len(t, rep.Results, 3, "instructions/op, B/op and allocs/op")
		require.Equal(t, "instructions/op", rep.Results[0].Unit, "the metric leads")
		assert.Equal(t, "definite-improvement", rep.Results[0].Verdict.String())
		// Each comparison keeps its raw files in a directory of its own,
		// named in the report.
		assert.True(t, strings.HasPrefix(rep.Out, filepath.Join(dir, ".mbopt", "compare")+string(filepath.Separator)), rep.Out)
		assert.FileExists(t, filepath.Join(rep.Out, compare.BaseFile))
	}
	assert.FileExists(t, filepath.Join(rep.Out, compare.HeadFile), "an earlier comparison's files are kept")
	dirs, err := filepath.Glob(filepath.Join(dir, ".mbopt", "compare", "*", compare.HeadFile))
	require.NoError(t, err)
	assert.Len(t, dirs, 4, "one directory per comparison")
}

// worktrees returns the worktrees git knows of in dir, the main one first.
func worktrees(t *testing.T, dir string) []string {
	out, err := exec.Command("git", "-C", dir, "worktree", "list", "--porcelain").Output()
	require.NoError(t, err)
	var wts []string
	for _, l := range strings.Split(string(out), "\n") {
		if p, ok := strings.CutPrefix(l, "worktree "); ok {
			wts = append(wts, p)
		}
	}
	return wts
}

// tempDirs returns the compare temporary directories in tmp.
func tempDirs(t *testing.T, tmp string) []string {
	m, err := filepath.Glob(filepath.Join(tmp, compare.TempPrefix+"*"))
	require.NoError(t, err)
	return m
}

// TestCompareKilledLeavesNoWorktree interrupts compare mid-run: SIGINT
// removes its worktrees and temporary directory at once; after SIGKILL
// they stay, and the next run removes them and works.
func TestCompareKilledLeavesNoWorktree(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	tmp := t.TempDir()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		cmd := exec.Command(buildMbopt(t), "compare", "--metric", "time", "--trials", "50", "--benchtime", "20ms", "--fail-on", "never")
		cmd.Dir = dir
		cmd.Env = compareEnv(t, tmp)
		var errb syncBuffer
		cmd.Stderr = &errb
		require.NoError(t, cmd.Start())
		deadline := time.Now().Add(2 * time.Minute)
		for !strings.Contains(errb.String(), "trial 1 run 1") && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		require.Contains(t, errb.String(), "trial 1 run 1", "compare did not start measuring")
		require.Len(t, worktrees(t, dir), 3, "%s: the main worktree, base and head while running", sig)
		require.NoError(t, cmd.Process.Signal(sig))
		err := cmd.Wait()
		if sig == syscall.SIGINT {
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, 130, ee.ExitCode(), errb.String())
			assert.Len(t, worktrees(t, dir), 1, "after SIGINT: no worktree left")
			assert.Empty(t, tempDirs(t, tmp), "after SIGINT: no temporary directory left")
			continue
		}
		assert.Len(t, tempDirs(t, tmp), 1, "SIGKILL leaves the temporary directory")
		code, stdout, stderr := mboptIn(t, dir, tmp, append(append([]string{}, compareArgs...), "--bench", "Faster", "--trials", "2", "--runs", "1")...)
		assert.Equal(t, cli.OK, code, "a rerun works\n%s\n%s", stdout, stderr)
		assert.Len(t, worktrees(t, dir), 1, "after the rerun: no worktree left")
		assert.Empty(t, tempDirs(t, tmp), "after the rerun: the killed run's temporary directory is gone")
	}
}

func TestCompareBadRevisions(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	tmp := t.TempDir()
	for _, tc := range []struct {
		args       []string
		names, fix string
	}{
		{[]string{"--base", "nosuch"}, "--base", "names no commit"},
		{[]string{"--head", "v9"}, "--head", "names no commit"},
		{[]string{"--bench", "("}, "--bench", "missing closing )"},
		{[]string{"--bench", "NoSuchBenchmark"}, "--bench", "no benchmark matches"},
	} {
		code, _, stderr := mboptIn(t, dir, tmp, append([]string{"compare"}, tc.args...)...)
		// The error is the last line, after any progress lines.
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		last := lines[len(lines)-1]
		assert.Equal(t, cli.BadInput, code, stderr)
		assert.Contains(t, last, "mbopt: "+tc.names, tc.args)
		assert.Contains(t, last, tc.fix, tc.args)
	}
	assert.Len(t, worktrees(t, dir), 1, "no worktree left by a failed run")
	assert.Empty(t, tempDirs(t, tmp), "no temporary directory left by a failed run")
}

// TestCompareShardAndMerge runs the fixture's comparison as 2 shards, as two
// CI jobs would (the index of one from JOB_COMPLETION_INDEX), and merges
// them: the merge gates on the whole suite, refuses an incomplete set of
// shards, and a shard job's own gate can be switched off.
func TestCompareShardAndMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fixture's comparison in 2 shards")
	}
	// Threefold changes: the merge's gate failing on BenchmarkSlower is
	// what it checks, and at +30% one trial whose CPU time ran 1.43x high
	// keeps the 99% interval of three trials from being definite.
	dir := cmpfixture.Repo(t, cmpfixture.Variant{Threefold: true})
	tmp := t.TempDir()
	// The shards' --out and -o are paths with characters that mean
	// something in a URI or a shell, and non-ASCII letters (issue 25: the
	// files named, nothing elsewhere).
	shards := []string{filepath.Join(tmp, "shard #0?x=1"), filepath.Join(tmp, "job%2Fmain", "shard 1 ä")}
	report0 := filepath.Join(tmp, "report #0?.txt")
	code, stdout, stderr := mboptIn(t, dir, tmp, append(append([]string{}, compareArgs...), "--shard", "0/2", "--fail-on", "never", "--out", shards[0], "-o", report0)...)
	require.Equal(t, cli.OK, code, stderr)
	assert.Empty(t, stdout, "-o holds the report")
	data, err := os.ReadFile(report0)
	require.NoError(t, err)
	assert.Contains(t, string(data), "note: shard 0/2: ran 2 of the 3 benchmarks, all trials")
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	code, stdout, stderr = mboptIn(t, dir, tmp, append(append([]string{}, compareArgs...), "--shard", "/2", "--fail-on", "never", "--out", shards[1], "--format", "json")...)
	require.Equal(t, cli.OK, code, stderr)
	var rep compare.Report
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	assert.Contains(t, strings.Join(rep.Notes, "\n"), "shard 1/2: ran")

	merged := filepath.Join(tmp, "merged")
	code, stdout, stderr = mboptIn(t, dir, tmp, "compare", "merge", shards[0], shards[1], "--out", merged)
	assert.Equal(t, cli.Gate, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stderr, "the gate failed on 1 benchmark: "+cmpfixture.Package+"."+cmpfixture.Slower+" (sec/op)")
	assert.Contains(t, stdout, "merged 2 shards, sharded by benchmarks")
	assert.FileExists(t, filepath.Join(merged, compare.BaseFile))

	code, _, stderr = mboptIn(t, dir, tmp, "compare", "merge", shards[0], "--out", filepath.Join(tmp, "half"))
	assert.Equal(t, cli.BadInput, code, stderr)
	assert.Contains(t, stderr, "missing 1 shard of 2: shard 1/2")

	// --out naming a file is bad input, found before the merge's work
	// (issue 25: exit 1).
	file := filepath.Join(tmp, "out.txt")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	code, _, stderr = mboptIn(t, dir, tmp, "compare", "merge", shards[0], shards[1], "--out", file, "--no-history")
	assert.Equal(t, cli.BadInput, code, stderr)
	assert.Contains(t, stderr, "the output directory "+file+" is a file")

	// The merge stored the whole comparison in the history, once, under
	// the machine of the shards' raw files; the shards stored nothing
	// (issue 23 item 6).
	st, err := history.OpenReadOnly(context.Background(), filepath.Join(dir, ".mbopt", "history.db"))
	require.NoError(t, err)
	defer st.Close()
	set, err := st.Series(context.Background(), history.Query{Unit: "sec/op"})
	require.NoError(t, err)
	require.Len(t, set.Series, 3, "every benchmark of both shards")
	for _, sr := range set.Series {
		require.Len(t, sr.Points, 1, sr.ID)
		assert.Equal(t, set.Series[0].Points[0].Comparison, sr.Points[0].Comparison, "one comparison: the merge's")
		assert.Equal(t, rep.Head.Commit, sr.Points[0].Head.Commit)
		assert.NotEmpty(t, sr.Machine.GOOS, "the machine the raw files name")
	}
	code, _, stderr = mboptIn(t, dir, tmp, append(append([]string{}, compareArgs...), "--shard", "0/2", "--history", filepath.Join(tmp, "h.db"))...)
	assert.Equal(t, cli.BadInput, code)
	assert.Contains(t, stderr, "--history: a shard's results are only part of the comparison")

	// The merge's --out, -o and --history at odd paths are the files
	// named (issue 25: '#' cut the history's name, '?' broke its URI and
	// %2F was decoded, so data landed in another file).
	odd := filepath.Join(tmp, "job%2Fmain", "a #1?x=ä 履歴")
	require.NoError(t, os.MkdirAll(odd, 0o755), "-o wants its directory")
	oddOut, oddReport, oddDB := filepath.Join(odd, "merged #?"), filepath.Join(odd, "report #?.md"), filepath.Join(odd, "h #1?x=1.db")
	code, stdout, stderr = mboptIn(t, dir, tmp, "compare", "merge", shards[0], shards[1], "--out", oddOut, "-o", oddReport, "--history", oddDB, "--format", "markdown", "--fail-on", "never")
	require.Equal(t, cli.OK, code, stderr)
	assert.Empty(t, stdout, "-o holds the report")
	assert.FileExists(t, filepath.Join(oddOut, compare.BaseFile))
	assert.FileExists(t, filepath.Join(oddOut, compare.HeadFile))
	data, err = os.ReadFile(oddReport)
	require.NoError(t, err)
	assert.Contains(t, string(data), cmpfixture.Slower)
	entries, err := os.ReadDir(odd)
	require.NoError(t, err)
	for _, e := range entries {
		assert.Contains(t, []string{"merged #?", "report #?.md", "h #1?x=1.db", "h #1?x=1.db-wal", "h #1?x=1.db-shm"}, e.Name(), "a file no flag named")
	}
	for _, stray := range []string{filepath.Join(odd, "h "), filepath.Join(tmp, "job"), filepath.Join(tmp, "a ")} {
		assert.NoFileExists(t, stray)
		assert.NoDirExists(t, stray)
	}
	oddSt, err := history.OpenReadOnly(context.Background(), oddDB)
	require.NoError(t, err)
	defer oddSt.Close()
	oddSet, err := oddSt.Series(context.Background(), history.Query{Unit: "sec/op"})
	require.NoError(t, err)
	assert.Len(t, oddSet.Series, 3, "the merge stored every benchmark in the history named")
}

// TestCompareWithoutValgrind: --metric instructions on a machine without
// valgrind fails before measuring, naming the Debian/Ubuntu package and
// the flag that picks another metric (issue 21).
func TestCompareWithoutValgrind(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	tmp := t.TempDir()
	bin := t.TempDir() // PATH: git and go, no valgrind
	for _, tool := range []string{"git", "go"} {
		p, err := exec.LookPath(tool)
		require.NoError(t, err)
		require.NoError(t, os.Symlink(p, filepath.Join(bin, tool)))
	}
	cmd := exec.Command(buildMbopt(t), append(append([]string{}, compareArgs...), "--metric", "instructions", "--no-history")...)
	cmd.Dir = dir
	cmd.Env = append(compareEnv(t, tmp), "PATH="+bin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, stderr.String())
	assert.Equal(t, cli.BadInput, ee.ExitCode(), stderr.String())
	assert.Contains(t, stderr.String(), "apt-get install valgrind")
	assert.Contains(t, stderr.String(), "--metric time or --metric cpu")
	assert.NotContains(t, stderr.String(), "trial 1", "nothing ran")
}

// TestCompareHelpListsMetrics: compare --help names the three metrics, the
// duet and the false-discovery-rate flag, in the flag list and in the
// manual's section it begins with (issue 21).
func TestCompareHelpListsMetrics(t *testing.T) {
	code, out, errOut := run(t, "compare", "--help")
	require.Equal(t, 0, code, errOut)
	flags := out[strings.Index(out, "\nFlags:\n"):]
	for _, tc := range []struct{ where, text, want string }{
		{"manual", out[:len(out)-len(flags)], "--metric time|cpu|instructions: what is measured per operation (default:"},
		{"manual", out[:len(out)-len(flags)], "instructions where Valgrind is installed, else time;"},
		{"flags", flags, "(default \"instructions where Valgrind is installed, else time\")"},
		{"flags", flags, "(default 5 with --metric time, 1 with cpu and instructions)"},
		{"flags", flags, "(default \"1s with --metric time, 100ms with cpu and instructions\")"},
		{"flags", flags, "--metric string"},
		{"flags", flags, "{time|cpu|instructions}"},
		{"flags", flags, "--duet string"},
		{"flags", flags, "{sequential|parallel}"},
		{"flags", flags, "--fdr float"},
	} {
		assert.Contains(t, tc.text, tc.want, tc.where)
	}
}
