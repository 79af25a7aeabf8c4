package collect_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/benchname"
	"github.com/mbopt/mbopt/collect"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/manifest"
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
	tag := processTag(t)
	var mu sync.Mutex
	var events []collect.Event
	cfg := collect.Config{
		Dir:       "../testdata/faults",
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
	assert.Empty(t, processesWith(t, tag), "processes left running after Collect returned")

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
	assert.Equal(t, 5, builds, "packages with benchmarks (nobench has none)")
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

func okEntries(m *manifest.Manifest) []manifest.Entry {
	var out []manifest.Entry
	for _, e := range m.Benchmarks {
		if e.Status == manifest.StatusOK {
			out = append(out, e)
		}
	}
	return out
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
// reuses complete profiles, and that Force and a changed benchtime do not.
func TestCollectResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults")
	}
	out := t.TempDir()
	run := func(cfg collect.Config) (reused []string, m *manifest.Manifest) {
		t.Helper()
		cfg.Dir, cfg.Out, cfg.Patterns = "../testdata/faults", out, []string{"./healthy", "./panics"}
		cfg.Bench = "Fast|Sub|Fatal"
		cfg.Progress = func(ev collect.Event) {
			if ev.Kind == collect.EventFinish && ev.Reused {
				reused = append(reused, ev.Entry.ID)
			}
		}
		m, err := collect.Collect(t.Context(), cfg)
		require.NoError(t, err)
		slices.Sort(reused)
		return reused, m
	}
	_, first := run(collect.Config{BenchTime: "1x"})
	require.Equal(t, 6, first.Count(manifest.StatusOK), "ok entries: %+v", first.Benchmarks)
	require.Equal(t, 2, first.Count(manifest.StatusFailed), "BenchmarkFatal and BenchmarkSubPanic/bad")

	reused, second := run(collect.Config{BenchTime: "1x"})
	assert.Equal(t, []string{
		"example.com/faults/healthy.BenchmarkFast",
		"example.com/faults/healthy.BenchmarkSub/n=1",
		"example.com/faults/healthy.BenchmarkSub/n=10",
		"example.com/faults/healthy.BenchmarkSub/with_space",
		"example.com/faults/panics.BenchmarkFast",
		"example.com/faults/panics.BenchmarkSubPanic/ok",
	}, reused, "every ok entry is reused; the failed ones run again")
	assert.Equal(t, okEntries(first), okEntries(second), "reused entries are unchanged")

	// A deleted profile is collected again.
	require.NoError(t, os.Remove(filepath.Join(out, entry(t, first, "example.com/faults/panics.BenchmarkFast").Profile)))
	reused, _ = run(collect.Config{BenchTime: "1x"})
	assert.Len(t, reused, 5)

	reused, _ = run(collect.Config{BenchTime: "1x", Force: true})
	assert.Empty(t, reused, "Force")
	reused, _ = run(collect.Config{BenchTime: "2x"})
	assert.Empty(t, reused, "changed benchtime")
}

// TestCollectTopLevelOnly profiles each top-level benchmark as one unit,
// so the faults show up in the profile runs rather than in discovery runs.
func TestCollectTopLevelOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults")
	}
	m, err := collect.Collect(t.Context(), collect.Config{
		Dir: "../testdata/faults", Out: t.TempDir(), Patterns: []string{"./healthy", "./panics", "./hangs"},
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
	_, err := collect.Collect(t.Context(), collect.Config{Dir: "../testdata/faults", Out: t.TempDir(), Patterns: []string{"./nobench"}})
	assert.ErrorIs(t, err, collect.ErrNoBenchmarks)
}

func TestDiscover(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list on testdata/faults")
	}
	pkgs, err := collect.Discover(t.Context(), collect.Config{Dir: "../testdata/faults"})
	require.NoError(t, err)
	got := map[string][]string{}
	for _, p := range pkgs {
		got[p.Path] = p.Benchmarks
		assert.Equal(t, "example.com/faults", p.Module)
		assert.DirExists(t, p.Dir)
	}
	assert.Equal(t, map[string][]string{
		"example.com/faults/broken":  {"BenchmarkBroken"},
		"example.com/faults/hangs":   {"BenchmarkHang", "BenchmarkQuick"},
		"example.com/faults/healthy": {"BenchmarkExternal", "BenchmarkFast", "BenchmarkSub"},
		"example.com/faults/panics":  {"BenchmarkFast", "BenchmarkFatal", "BenchmarkPanic", "BenchmarkSkip", "BenchmarkSubPanic"},
		"example.com/faults/spawns":  {"BenchmarkSpawn"},
	}, got)
}
