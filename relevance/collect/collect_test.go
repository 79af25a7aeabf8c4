package collect_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proctab"
)

// faultsWant is the status of every benchmark of ../testdata/faults, with a
// fragment its error must contain.
var faultsWant = map[string]struct {
	status manifest.Status
	err    string
}{
	"example.com/faults/broken.BenchmarkBroken":          {manifest.StatusBuildFailed, "cannot use"},
	"example.com/faults/healthy.BenchmarkExternal":       {manifest.StatusOK, ""},
	"example.com/faults/healthy.BenchmarkFast":           {manifest.StatusOK, ""},
	"example.com/faults/healthy.BenchmarkSub/n=1":        {manifest.StatusOK, ""},
	"example.com/faults/healthy.BenchmarkSub/n=10":       {manifest.StatusOK, ""},
	"example.com/faults/healthy.BenchmarkSub/with_space": {manifest.StatusOK, ""},
	"example.com/faults/hidden.BenchmarkHidden/a":        {manifest.StatusOK, ""},
	"example.com/faults/hidden.BenchmarkHidden/b":        {manifest.StatusOK, ""},
	"example.com/faults/hangs.BenchmarkHang":             {manifest.StatusTimeout, "timed out after 3s while running BenchmarkHang"},
	"example.com/faults/hangs.BenchmarkQuick":            {manifest.StatusOK, ""},
	"example.com/faults/panics.BenchmarkFast":            {manifest.StatusOK, ""},
	"example.com/faults/panics.BenchmarkFatal":           {manifest.StatusFailed, "the benchmark gave up"},
	"example.com/faults/panics.BenchmarkPanic":           {manifest.StatusFailed, "panic: boom"},
	"example.com/faults/panics.BenchmarkSkip":            {manifest.StatusSkipped, "not today"},
	"example.com/faults/panics.BenchmarkSubPanic/bad":    {manifest.StatusFailed, "panic: sub-benchmark boom"},
	"example.com/faults/panics.BenchmarkSubPanic/ok":     {manifest.StatusOK, ""},
	"example.com/faults/panics.BenchmarkSubPanic/after":  {manifest.StatusOK, ""},
	"example.com/faults/spawns.BenchmarkSpawn":           {manifest.StatusOK, ""},
}

// TestCollectFaults collects the faults fixture: a package that does not
// build, benchmarks that panic, fail, skip and hang are recorded with the
// right status and the others are profiled, including the sub-benchmark
// that runs after a panicking sibling; no process is left running, not even
// the one a successful benchmark started in the background.
func TestCollectFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults")
	}
	out := t.TempDir()
	tag := proctab.Tag(t)
	var mu sync.Mutex
	var events []collect.Event
	cfg := collect.Config{
		Dir:       "../../testdata/faults",
		Out:       out,
		BenchTime: "1x",
		Timeout:   3 * time.Second,
		Jobs:      2,
		Env:       []string{tag},
		Progress: func(ev collect.Event) {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, ev)
		},
	}
	m, err := collect.Collect(t.Context(), cfg)
	require.NoError(t, err)
	assert.Empty(t, proctab.Tagged(tag, "", 5*time.Second), "processes left running after Collect returned")

	assert.Equal(t, "example.com/faults", m.Module)
	assert.Equal(t, "1x", m.BenchTime)
	assert.True(t, strings.HasPrefix(m.GoVersion, "go"), "GoVersion = %q", m.GoVersion)
	got := map[string]manifest.Status{}
	for _, e := range m.Benchmarks {
		got[e.ID] = e.Status
		want, ok := faultsWant[e.ID]
		if !ok {
			continue
		}
		assert.Contains(t, e.Error, want.err, "%s error", e.ID)
		assert.Equal(t, e.ID, benchname.ID(e.Package, e.Name))
		if e.Status == manifest.StatusOK {
			assert.NotEmpty(t, e.Profile, "%s profile", e.ID)
			assert.FileExists(t, filepath.Join(out, e.Profile))
			assert.NotEmpty(t, e.TestBinary, "%s test_binary", e.ID)
			assert.Equal(t, int64(1), e.Iterations, "%s iterations with -benchtime 1x", e.ID)
			assert.Positive(t, e.NsPerOp, "%s ns/op", e.ID)
			assert.Len(t, e.ProfileSHA256, 64, "%s profile_sha256", e.ID)
		} else {
			assert.Empty(t, e.Profile, "%s profile", e.ID)
			assert.NotEmpty(t, e.Log, "%s log", e.ID)
			assert.FileExists(t, filepath.Join(out, e.Log))
		}
	}
	want := map[string]manifest.Status{}
	for id, w := range faultsWant {
		want[id] = w.status
	}
	assert.Equal(t, want, got)

	// The manifest on disk is the one returned, and sorted.
	disk, err := manifest.Load(out)
	require.NoError(t, err)
	assert.Equal(t, m, disk)
	ids := make([]string, len(m.Benchmarks))
	for i, e := range m.Benchmarks {
		ids[i] = e.Package + " " + e.Name
	}
	assert.True(t, slices.IsSorted(ids), "entries sorted by package, then name: %v", ids)
	assert.Equal(t, "healthy", entry(t, m, "example.com/faults/healthy.BenchmarkFast").Dir)
	assert.NoDirExists(t, filepath.Join(out, ".bin"), "test binaries are removed")
	assertNoTemp(t, out)

	// Progress: every package built once, every entry finished once; the
	// totals grow while discovery runs and end at the number of entries.
	var builds, finishes int
	var last collect.Event
	for _, ev := range events {
		switch ev.Kind {
		case collect.EventBuild:
			builds++
			assert.Equal(t, ev.Package == "example.com/faults/broken", ev.Err != nil, "build event of %s: err %v", ev.Package, ev.Err)
		case collect.EventFinish:
			finishes++
			assert.LessOrEqual(t, ev.Done, ev.Total)
			last = ev
		}
	}
	assert.Equal(t, 6, builds, "packages with benchmarks (nobench and benchcases have none)")
	assert.Equal(t, len(faultsWant), finishes)
	assert.Equal(t, len(faultsWant), last.Done)
	assert.Equal(t, len(faultsWant), last.Total)
}

// assertNoTemp fails when dir or dir/logs holds a temporary file.
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	for _, d := range []string{dir, filepath.Join(dir, "logs")} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			n := e.Name()
			assert.False(t, atomicfile.IsTemp(n) || strings.HasSuffix(n, ".tmp") || strings.HasSuffix(n, ".partial"), "temporary file %s left in %s", n, d)
		}
	}
}

func entry(t *testing.T, m *manifest.Manifest, id string) manifest.Entry {
	t.Helper()
	for _, e := range m.Benchmarks {
		if e.ID == id {
			return e
		}
	}
	t.Fatalf("no entry %s", id)
	return manifest.Entry{}
}

// TestCollectResume checks that a second run into the same directory
// reuses complete profiles and recorded failures of the same test binary,
// without any discovery run, and what makes it run a benchmark again: a
// deleted or substituted profile, RetryFailed, Force, another benchtime.
func TestCollectResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults")
	}
	out := t.TempDir()
	run := func(cfg collect.Config) (reused []string, discovered int, m *manifest.Manifest) {
		t.Helper()
		cfg.Dir, cfg.Out, cfg.Patterns = "../../testdata/faults", out, []string{"./healthy", "./panics"}
		cfg.Bench = "Fast|Sub|Fatal"
		cfg.Progress = func(ev collect.Event) {
			switch {
			case ev.Kind == collect.EventFinish && ev.Reused:
				reused = append(reused, strings.TrimPrefix(ev.Entry.ID, "example.com/faults/"))
			case ev.Kind == collect.EventDiscover && !ev.Reused:
				discovered++
			}
		}
		m, err := collect.Collect(t.Context(), cfg)
		require.NoError(t, err)
		slices.Sort(reused)
		return reused, discovered, m
	}
	launches := collect.Launches()
	_, _, first := run(collect.Config{BenchTime: "1x"})
	assert.Positive(t, collect.Launches()-launches, "the first run starts test binaries (and Launches counts them)")
	require.Equal(t, 7, first.Count(manifest.StatusOK), "ok entries: %+v", first.Benchmarks)
	require.Equal(t, 2, first.Count(manifest.StatusFailed), "BenchmarkFatal and BenchmarkSubPanic/bad")
	all := []string{
		"healthy.BenchmarkFast", "healthy.BenchmarkSub/n=1", "healthy.BenchmarkSub/n=10", "healthy.BenchmarkSub/with_space",
		"panics.BenchmarkFast", "panics.BenchmarkFatal", "panics.BenchmarkSubPanic/after", "panics.BenchmarkSubPanic/bad", "panics.BenchmarkSubPanic/ok",
	}

	launches = collect.Launches()
	reused, discovered, second := run(collect.Config{BenchTime: "1x"})
	assert.Equal(t, all, reused, "every entry is reused, failures included")
	assert.Zero(t, discovered, "discovery comes from the cache")
	assert.Zero(t, collect.Launches()-launches, "an unchanged rerun starts no test binary")
	assert.Equal(t, first, second, "reused entries are unchanged")

	// A deleted profile, and one replaced by another valid profile, are
	// collected again.
	fast := entry(t, first, "example.com/faults/panics.BenchmarkFast")
	sub := entry(t, first, "example.com/faults/healthy.BenchmarkSub/n=1")
	require.NoError(t, os.Remove(filepath.Join(out, fast.Profile)))
	other, err := os.ReadFile(filepath.Join(out, entry(t, first, "example.com/faults/healthy.BenchmarkFast").Profile))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(out, sub.Profile), other, 0o644))
	reused, _, third := run(collect.Config{BenchTime: "1x"})
	assert.Len(t, reused, len(all)-2)
	assert.NotContains(t, reused, "healthy.BenchmarkSub/n=1", "a substituted profile is not reused")
	assert.NotEqual(t, sub.ProfileSHA256, entry(t, third, sub.ID).ProfileSHA256, "the substituted profile was collected again")
	got, err := os.ReadFile(filepath.Join(out, sub.Profile))
	require.NoError(t, err)
	assert.NotEqual(t, other, got)

	reused, discovered, _ = run(collect.Config{BenchTime: "1x", RetryFailed: true})
	assert.NotContains(t, reused, "panics.BenchmarkFatal", "RetryFailed")
	assert.NotContains(t, reused, "panics.BenchmarkSubPanic/bad", "RetryFailed")
	assert.Len(t, reused, len(all)-2)
	assert.Equal(t, 1, discovered, "RetryFailed runs discovery again where it failed: BenchmarkSubPanic (BenchmarkFatal, which has no sub-benchmarks, has no discovery run)")

	reused, _, _ = run(collect.Config{BenchTime: "1x", Force: true})
	assert.Empty(t, reused, "Force")
	reused, _, _ = run(collect.Config{BenchTime: "2x"})
	assert.Equal(t, []string{"panics.BenchmarkSubPanic/bad"}, reused,
		"another benchtime: only the failures of the -benchtime 1x discovery runs stay")
}

// TestCollectMerge checks that the manifest is merged: a run on a subset
// (Bench, Skip, fewer packages) keeps every other entry as it was, and
// drops only selected entries whose benchmark no longer exists.
func TestCollectMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults")
	}
	out := t.TempDir()
	run := func(cfg collect.Config) *manifest.Manifest {
		t.Helper()
		cfg.Dir, cfg.Out, cfg.BenchTime = "../../testdata/faults", out, "1x"
		m, err := collect.Collect(t.Context(), cfg)
		require.NoError(t, err)
		disk, err := manifest.Load(out)
		require.NoError(t, err)
		require.Equal(t, m, disk)
		return m
	}
	full := run(collect.Config{Patterns: []string{"./healthy", "./panics"}, Bench: "Fast|Sub"})
	require.Len(t, full.Benchmarks, 8)

	// Entries of benchmarks that no longer exist: one in a selected
	// package, one in a package this run is not asked about.
	full.Benchmarks = append(full.Benchmarks,
		manifest.Entry{ID: "example.com/faults/healthy.BenchmarkGone", Package: "example.com/faults/healthy", Name: "BenchmarkGone", Status: manifest.StatusFailed, Error: "x"},
		manifest.Entry{ID: "example.com/faults/gone.BenchmarkGone", Package: "example.com/faults/gone", Name: "BenchmarkGone", Status: manifest.StatusFailed, Error: "x"})
	require.NoError(t, full.Write(out))

	m := run(collect.Config{Patterns: []string{"./healthy"}, Bench: "Fast"})
	assert.Equal(t, full, m, "a subset rerun changes nothing else; BenchmarkGone is not selected by Fast")

	m = run(collect.Config{Patterns: []string{"./healthy"}, Skip: "Sub"})
	ids := map[string]bool{}
	for _, e := range m.Benchmarks {
		ids[e.ID] = true
	}
	assert.False(t, ids["example.com/faults/healthy.BenchmarkGone"], "a selected benchmark that vanished is dropped")
	assert.True(t, ids["example.com/faults/gone.BenchmarkGone"], "a package outside the patterns is kept")
	assert.True(t, ids["example.com/faults/healthy.BenchmarkSub/n=1"], "skipped benchmarks are kept")
	assert.True(t, ids["example.com/faults/healthy.BenchmarkExternal"], "a new benchmark is added")
	assert.True(t, ids["example.com/faults/panics.BenchmarkSubPanic/ok"], "another package is kept")
	assert.Len(t, m.Benchmarks, 10)
}

// TestCollectSkip checks that Skip keeps benchmarks out of every run:
// BenchmarkSubPanic/bad is never run, so its siblings are found at once.
func TestCollectSkip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults")
	}
	m, err := collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/faults", Out: t.TempDir(), Patterns: []string{"./panics"},
		Bench: "SubPanic", Skip: "SubPanic/bad", BenchTime: "1x"})
	require.NoError(t, err)
	var got []string
	for _, e := range m.Benchmarks {
		got = append(got, e.Name+" "+string(e.Status))
	}
	assert.Equal(t, []string{"BenchmarkSubPanic/after ok", "BenchmarkSubPanic/ok ok"}, got)
}

// TestCollectLocked checks that Collect refuses an output directory whose
// lock another process holds, naming the lock file and the holder, and
// changes nothing in it.
func TestCollectLocked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list on testdata/faults")
	}
	out := t.TempDir()
	lock := filepath.Join(out, collect.LockFile)
	f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err)
	defer f.Close()
	require.NoError(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
	_, err = f.WriteString("pid 4242 host ci-7 started 2026-01-01T00:00:00Z\n")
	require.NoError(t, err)

	_, err = collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/faults", Out: out, Patterns: []string{"./healthy"}})
	require.ErrorIs(t, err, collect.ErrLocked)
	require.ErrorIs(t, err, mbopt.ErrInput)
	assert.Contains(t, err.Error(), lock)
	assert.Contains(t, err.Error(), "pid 4242 host ci-7")
	entries, _ := os.ReadDir(out)
	assert.Len(t, entries, 1, "only the lock file")
}

// TestCollectBadConfig checks the errors about the Config itself: each
// is an *mbopt.Error naming its field, and no output directory is created.
func TestCollectBadConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	noModule := t.TempDir()
	tests := []struct {
		name  string
		cfg   collect.Config
		field mbopt.Field
		want  string
	}{
		{"no such package", collect.Config{Patterns: []string{"./nosuch/..."}}, "Patterns", "no package matches ./nosuch/..."},
		{"no module", collect.Config{Dir: noModule}, "Dir", "is not inside a Go module"},
		{"no such directory", collect.Config{Dir: filepath.Join(tmp, "nosuch")}, "Dir", "is not a directory"},
		{"out is a file", collect.Config{Out: file}, "Out", "is not a directory"},
		{"out below a file", collect.Config{Out: filepath.Join(file, "out")}, "Out", "output directory"},
		{"bad bench", collect.Config{Bench: "(x"}, "Bench", "missing closing )"},
		{"bad skip", collect.Config{Skip: "a/(x"}, "Skip", "missing closing )"},
		{"bad source", collect.Config{Source: "trace"}, "Source", `unknown source "trace"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			if cfg.Dir == "" {
				cfg.Dir = "../../testdata/faults"
			}
			want := filepath.Join(tmp, "out-"+strings.ReplaceAll(tt.name, " ", "-"))
			if cfg.Out == "" {
				cfg.Out = want
			}
			_, err := collect.Collect(t.Context(), cfg)
			require.ErrorIs(t, err, mbopt.ErrInput)
			var ie *mbopt.Error
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, tt.field, ie.Field)
			assert.Contains(t, err.Error(), tt.want)
			assert.NoFileExists(t, want)
			assert.NoDirExists(t, want, "no output directory before the inputs are checked")
		})
	}
}

// TestCollectTopLevelOnly profiles each top-level benchmark as one unit,
// so the faults show up in the profile runs rather than in discovery runs.
func TestCollectTopLevelOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults")
	}
	m, err := collect.Collect(t.Context(), collect.Config{
		Dir: "../../testdata/faults", Out: t.TempDir(), Patterns: []string{"./healthy", "./panics", "./hangs"},
		BenchTime: "1x", TopLevelOnly: true, Timeout: 3 * time.Second,
	})
	require.NoError(t, err)
	got := map[string]string{}
	for _, e := range m.Benchmarks {
		got[e.ID] = string(e.Status) + ": " + firstLine(e.Error)
	}
	assert.Equal(t, map[string]string{
		"example.com/faults/hangs.BenchmarkHang":       "timeout: timed out after 3s while running BenchmarkHang (killed; goroutine dump in the log)",
		"example.com/faults/hangs.BenchmarkQuick":      "ok: ",
		"example.com/faults/healthy.BenchmarkExternal": "ok: ",
		"example.com/faults/healthy.BenchmarkFast":     "ok: ",
		"example.com/faults/healthy.BenchmarkSub":      "ok: ",
		"example.com/faults/panics.BenchmarkFast":      "ok: ",
		"example.com/faults/panics.BenchmarkFatal":     "failed: panics_test.go:12: the benchmark gave up",
		"example.com/faults/panics.BenchmarkPanic":     "failed: panic: boom",
		"example.com/faults/panics.BenchmarkSkip":      "skipped: panics_test.go:16: not today",
		"example.com/faults/panics.BenchmarkSubPanic":  "failed: panic: sub-benchmark boom",
	}, got)
	assert.Zero(t, entry(t, m, "example.com/faults/healthy.BenchmarkSub").NsPerOp, "a parent reports no ns/op of its own")
	assert.Equal(t, int64(1), entry(t, m, "example.com/faults/healthy.BenchmarkFast").Iterations)
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

func TestCollectNoBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list on testdata/faults")
	}
	_, err := collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/faults", Out: t.TempDir(), Patterns: []string{"./nobench"}})
	assert.ErrorIs(t, err, collect.ErrNoBenchmarks)
}

func TestDiscover(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list on testdata/faults")
	}
	pkgs, err := collect.Discover(t.Context(), collect.Config{Dir: "../../testdata/faults"})
	require.NoError(t, err)
	got := map[string][]string{}
	parents := map[string][]string{}
	for _, p := range pkgs {
		got[p.Path] = p.Benchmarks
		if p.Parents != nil {
			parents[p.Path] = p.Parents
		}
		assert.Equal(t, "example.com/faults", p.Module)
		assert.DirExists(t, p.Dir)
	}
	assert.Equal(t, map[string][]string{
		"example.com/faults/broken":  {"BenchmarkBroken"},
		"example.com/faults/hangs":   {"BenchmarkHang", "BenchmarkQuick"},
		"example.com/faults/healthy": {"BenchmarkExternal", "BenchmarkFast", "BenchmarkSub"},
		"example.com/faults/hidden":  {"BenchmarkHidden"},
		"example.com/faults/panics":  {"BenchmarkFast", "BenchmarkFatal", "BenchmarkPanic", "BenchmarkSkip", "BenchmarkSubPanic"},
		"example.com/faults/spawns":  {"BenchmarkSpawn"},
	}, got)
	assert.Equal(t, map[string][]string{
		"example.com/faults/healthy": {"BenchmarkSub"},
		"example.com/faults/panics":  {"BenchmarkSubPanic"},
	}, parents, "benchmarks whose source shows a b.Run (hidden's is in another package)")
}
