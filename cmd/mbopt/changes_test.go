package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/gittest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// changeFixture is a module example.com/fix whose package q has four
// functions, and profiles in which the application calls all four and
// three benchmarks each cover a part: A covers Parse and Eval, B covers
// Eval and Format, C covers Gc. Each benchmark alone covers a function, so
// the minimal suite is all three.
type changeFixture struct {
	repo       *gittest.Repo
	app, micro string
}

const fixQ = `package q

func Parse(s string) int { return len(s) }

func Eval(n int) int {
	return n * 2
}

func Format(n int) string { return string(rune('a' + n)) }

func Gc() {}
`

const fixQTest = `package q_test

import (
	"testing"

	"example.com/fix/q"
)

func BenchmarkA(b *testing.B) {
	for range b.N {
		q.Eval(q.Parse("x"))
	}
}

func BenchmarkB(b *testing.B) {
	for range b.N {
		q.Format(q.Eval(1))
	}
}

func BenchmarkC(b *testing.B) {
	for range b.N {
		q.Gc()
	}
}
`

func newChangeFixture(t *testing.T) *changeFixture {
	t.Helper()
	r := gittest.New(t, "main")
	r.Write("go.mod", "module example.com/fix\n\ngo 1.22\n")
	r.Write("q/q.go", fixQ)
	r.Write("q/q_test.go", fixQTest)
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "feature")

	dir := t.TempDir()
	const q = "example.com/fix/q."
	stack := func(ns int64, frames ...string) proftest.Stack { return proftest.Stack{Frames: frames, Nanos: ns} }
	app := writeProfile(t, dir, "app.pprof", proftest.Profile(
		stack(4e7, "main.main", q+"Parse"), stack(3e7, "main.main", q+"Eval"),
		stack(2e7, "main.main", q+"Format"), stack(1e7, "main.main", q+"Gc")))
	micro := filepath.Join(dir, "profiles")
	require.NoError(t, os.Mkdir(micro, 0o755))
	benches := map[string][]string{"A": {"Parse", "Eval"}, "B": {"Eval", "Format"}, "C": {"Gc"}}
	m := &manifest.Manifest{Version: manifest.SchemaVersion, Module: "example.com/fix", BenchTime: "1s"}
	for _, name := range []string{"A", "B", "C"} {
		var stacks []proftest.Stack
		for _, f := range benches[name] {
			stacks = append(stacks, stack(2e7, "example.com/fix/q_test.Benchmark"+name, q+f))
		}
		writeProfile(t, micro, name+".pprof", proftest.Profile(stacks...))
		m.Benchmarks = append(m.Benchmarks, manifest.Entry{ID: "example.com/fix/q.Benchmark" + name, Package: "example.com/fix/q",
			Dir: "q", Name: "Benchmark" + name, Status: manifest.StatusOK, Profile: name + ".pprof", WallSeconds: 1})
	}
	require.NoError(t, m.Write(micro))
	return &changeFixture{repo: r, app: app, micro: micro}
}

func (f *changeFixture) suite(t *testing.T, extra ...string) (int, string, string) {
	t.Helper()
	return run(t, append([]string{"suite", "--app", f.app, "--micro", f.micro, "--module", "example.com/fix"}, extra...)...)
}

// TestSuiteChangedSince is issue 11's change-aware check: a commit changes
// one function, exactly the suite's benchmarks covering it are tagged, and
// --only-affected emits only them.
func TestSuiteChangedSince(t *testing.T) {
	tests := []struct {
		name     string
		edit     func(r *gittest.Repo)
		list     string // --format list, tagged
		only     string // --format list --only-affected
		stderr   string
		onlyNote string
	}{
		{
			name: "a function two benchmarks cover",
			edit: func(r *gittest.Repo) { r.Replace("q/q.go", "return n * 2", "return n * 3") },
			list: "example.com/fix/q BenchmarkA affected\nexample.com/fix/q BenchmarkB affected\nexample.com/fix/q BenchmarkC\n",
			only: "example.com/fix/q BenchmarkA affected\nexample.com/fix/q BenchmarkB affected\n",
			stderr: ": 1 function changed; 2 of the suite's 3 benchmarks affected\n" +
				"mbopt: 3 of 3 benchmarks in 1 package\n",
			onlyNote: "mbopt: 2 of 3 benchmarks in 1 package\n",
		},
		{
			name:     "a function one benchmark covers",
			edit:     func(r *gittest.Repo) { r.Replace("q/q.go", "func Gc() {}", "func Gc() { _ = 1 }") },
			list:     "example.com/fix/q BenchmarkA\nexample.com/fix/q BenchmarkB\nexample.com/fix/q BenchmarkC affected\n",
			only:     "example.com/fix/q BenchmarkC affected\n",
			stderr:   ": 1 function changed; 1 of the suite's 3 benchmarks affected\n",
			onlyNote: "mbopt: 1 of 3 benchmarks in 1 package\n",
		},
		{
			name:     "the benchmark's own function",
			edit:     func(r *gittest.Repo) { r.Replace("q/q_test.go", `q.Eval(q.Parse("x"))`, `q.Eval(q.Parse("xy"))`) },
			list:     "example.com/fix/q BenchmarkA affected\nexample.com/fix/q BenchmarkB\nexample.com/fix/q BenchmarkC\n",
			only:     "example.com/fix/q BenchmarkA affected\n",
			stderr:   ": 1 function changed; 1 of the suite's 3 benchmarks affected\n",
			onlyNote: "mbopt: 1 of 3 benchmarks in 1 package\n",
		},
		{
			name:     "a comment",
			edit:     func(r *gittest.Repo) { r.Replace("q/q.go", "func Gc() {}", "// Gc collects.\nfunc Gc() {}") },
			list:     "example.com/fix/q BenchmarkA\nexample.com/fix/q BenchmarkB\nexample.com/fix/q BenchmarkC\n",
			only:     "",
			stderr:   ": 0 functions changed; 0 of the suite's 3 benchmarks affected\n",
			onlyNote: "mbopt: 0 of 3 benchmarks in 0 packages\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newChangeFixture(t)
			tt.edit(f.repo)
			f.repo.Commit("change")
			t.Chdir(f.repo.Dir)

			code, out, errOut := f.suite(t, "--format", "list", "--changed-since", "merge-base")
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, tt.list, out)
			assert.Contains(t, errOut, "mbopt: changes since ")
			assert.Contains(t, errOut, "(merge-base of HEAD and main)"+tt.stderr)

			code, out, errOut = f.suite(t, "--format", "list", "--changed-since", "main", "--only-affected")
			require.Equal(t, 0, code, errOut)
			assert.Equal(t, tt.only, out)
			assert.True(t, strings.HasSuffix(errOut, tt.onlyNote), errOut)
		})
	}
}

func TestSuiteChangedSinceFormats(t *testing.T) {
	f := newChangeFixture(t)
	f.repo.Replace("q/q.go", "return n * 2", "return n * 3") // uncommitted: the work tree counts
	f.repo.Replace("q/q.go", "func Gc() {}", "var G = 1\n\nfunc Gc() {}")
	t.Chdir(f.repo.Dir)

	code, out, errOut := f.suite(t, "--changed-since", "merge-base")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "go test -run '^$' -bench '^(BenchmarkA|BenchmarkB|BenchmarkC)$' example.com/fix/q  # affected: BenchmarkA BenchmarkB\n", out)
	assert.Contains(t, errOut, "mbopt: note: changed code outside any function (q/q.go:11) is not traced to benchmarks")

	code, out, errOut = f.suite(t, "--changed-since", "merge-base", "--format", "json")
	require.Equal(t, 0, code, errOut)
	var doc struct {
		Invocations []struct {
			Benchmarks []string `json:"benchmarks"`
			Affected   []string `json:"affected"`
		} `json:"invocations"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Len(t, doc.Invocations, 1)
	assert.Equal(t, []string{"BenchmarkA", "BenchmarkB"}, doc.Invocations[0].Affected)
}

func TestSuiteChangedSinceErrors(t *testing.T) {
	f := newChangeFixture(t)
	tests := []struct {
		name string
		dir  string
		args []string
		want string
	}{
		{"only-affected alone", f.repo.Dir, []string{"--only-affected"}, "--only-affected needs --changed-since REV"},
		{"unknown revision", f.repo.Dir, []string{"--changed-since", "nosuch"}, `--changed-since nosuch: revision "nosuch" names no commit`},
		{"not a repository", t.TempDir(), []string{"--changed-since", "merge-base"}, "--changed-since merge-base: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.dir)
			code, out, errOut := f.suite(t, tt.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tt.want)
		})
	}
}

// TestCompareChangedSince is issue 11's change-aware compare: after a
// commit that changes Gc (covered by BenchmarkC only), --only-affected
// compares only BenchmarkC, and without it the results of A and B are
// marked untouched (a detection there is likely noise). A comment-only
// change leaves nothing to compare, successfully.
func TestCompareChangedSince(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the fixture's benchmarks")
	}
	f := newChangeFixture(t)
	f.repo.Replace("q/q.go", "func Gc() {}", "func Gc() { _ = 1 }")
	f.repo.Commit("change Gc")
	t.Chdir(f.repo.Dir)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	args := []string{"compare", "--app", f.app, "--micro", f.micro, "--module", "example.com/fix", "--base", "main", "--metric", "time",
		"--trials", "2", "--runs", "1", "--count", "2", "--benchtime", "3x", "--resamples", "200",
		"--no-history", "--fail-on", "never", "--format", "json", "--out", t.TempDir()}
	results := func(out string) map[string]compare.Result {
		var rep compare.Report
		require.NoError(t, json.Unmarshal([]byte(out), &rep))
		m := map[string]compare.Result{}
		for _, r := range rep.Results {
			if r.Unit == "sec/op" {
				m[r.Name] = r
			}
		}
		return m
	}
	code, out, errOut := run(t, append(args, "--changed-since", "merge-base", "--only-affected")...)
	require.Equal(t, 0, code, errOut)
	got := results(out)
	assert.Len(t, got, 1, "only the affected benchmark runs: %v", got)
	assert.Contains(t, got, "BenchmarkC")
	assert.False(t, got["BenchmarkC"].Untouched)
	assert.Contains(t, errOut, "1 function changed; 1 of the suite's 3 benchmarks affected")

	// Stored this time: with the analysis, the history keeps the
	// reference profile's total as the application's value (issue 23:
	// the Figure 8/9 view's upper series "from the reference profile's
	// total" when no application measurement is stored).
	histPath := filepath.Join(t.TempDir(), "history.db")
	stored := slices.Clone(args)
	stored[slices.Index(stored, "--no-history")] = "--history=" + histPath
	code, out, errOut = run(t, append(stored, "--changed-since", "main")...)
	require.Equal(t, 0, code, errOut)
	got = results(out)
	require.Len(t, got, 3, errOut)
	assert.True(t, got["BenchmarkA"].Untouched)
	assert.True(t, got["BenchmarkB"].Untouched)
	assert.False(t, got["BenchmarkC"].Untouched)
	st, err := history.OpenReadOnly(context.Background(), histPath)
	require.NoError(t, err)
	set, err := st.Series(context.Background(), history.Query{})
	st.Close()
	require.NoError(t, err)
	require.Len(t, set.Application, 1)
	app := set.Application[0]
	assert.Equal(t, filepath.Base(f.app), app.Name)
	assert.Equal(t, history.FromReferenceProfile, app.Source)
	assert.Equal(t, "CPU seconds", app.Unit)
	assert.Greater(t, app.Value, 0.0)

	// A comment-only change: nothing is affected, nothing to compare.
	f.repo.Replace("q/q.go", "func Format", "// Format formats.\nfunc Format")
	f.repo.Commit("comment")
	code, out, errOut = run(t, append(args, "--changed-since", "HEAD~1", "--only-affected")...)
	assert.Equal(t, 0, code, errOut)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "nothing to compare")

	code, _, errOut = run(t, "compare", "--bench", ".", "--changed-since", "main")
	assert.Equal(t, cli.BadInput, code)
	assert.Contains(t, errOut, "--changed-since needs the analysis flags")
}
