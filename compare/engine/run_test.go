package engine_test

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/need"
)

// TestRunAlone: the engine without the judge, on the fixture repository
// (package testkit/cmpfixture: a base and a topic head): the raw files
// hold each benchmark each version has, the Raw records what the files
// cannot (a package that did not build, a benchmark in one version only),
// progress counts every build and process, and Close leaves no worktree.
func TestRunAlone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v       cmpfixture.Variant
		on      map[string][2]bool // unit name → in base, head
		headErr bool               // the package does not build in the head
	}{
		{"both versions", cmpfixture.Variant{},
			map[string][2]bool{cmpfixture.Faster: {true, true}, cmpfixture.Same: {true, true}, cmpfixture.Slower: {true, true}}, false},
		{"added and removed", cmpfixture.Variant{AddRemove: true},
			map[string][2]bool{cmpfixture.Faster: {true, true}, "BenchmarkNew": {false, true}, cmpfixture.Same: {true, false}, cmpfixture.Slower: {true, true}}, false},
		{"head does not build", cmpfixture.Variant{Broken: true},
			map[string][2]bool{cmpfixture.Faster: {true, false}, cmpfixture.Same: {true, false}, cmpfixture.Slower: {true, false}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := cmpfixture.Repo(t, tc.v)
			var builds, runs int
			raw, err := engine.Run(context.Background(), engine.Plan{Dir: dir, CacheDir: "off", Out: t.TempDir(),
				Schedule: engine.Schedule{Trials: 1, Runs: 1, Count: 1, BenchTime: "1x", Seed: 1},
				Progress: func(ev engine.Event) {
					switch ev.Kind {
					case engine.EventBuild:
						builds++
					case engine.EventRun:
						runs++
					}
				}})
			require.NoError(t, err)
			raw.Close()
			raw.Close() // twice is safe
			out, err := exec.Command("git", "-C", dir, "worktree", "list").Output()
			require.NoError(t, err)
			assert.Equal(t, 1, strings.Count(string(out), "\n"), "worktrees left behind:\n%s", out)

			assert.Equal(t, cmpfixture.Module, raw.Module)
			assert.False(t, raw.Same)
			assert.Equal(t, []int{1}, raw.Trials)
			assert.Equal(t, []string{cmpfixture.Package}, raw.PackageNames())
			assert.Equal(t, tc.headErr, raw.Packages[cmpfixture.Package][engine.Head] != "", "head build: %q", raw.Packages[cmpfixture.Package][engine.Head])
			assert.Empty(t, raw.Packages[cmpfixture.Package][engine.Base])
			on := map[string][2]bool{}
			wantRuns := 0
			for _, u := range raw.Units {
				on[u.Name] = u.On
				for _, o := range u.On {
					if o {
						wantRuns++
					}
				}
			}
			assert.Equal(t, tc.on, on)
			assert.Equal(t, 2, builds, "one package, two versions")
			assert.Equal(t, wantRuns, runs, "one process per unit and version")

			d, err := engine.ReadFiles(raw.Files[:])
			require.NoError(t, err)
			commits := [2]string{raw.Base.Commit, raw.Head.Commit}
			if tc.headErr {
				commits[engine.Head] = "" // the head measured nothing
			}
			assert.Equal(t, commits, d.Commits)
			for name, o := range tc.on {
				k := engine.Key{ID: benchname.ID(cmpfixture.Package, name), Unit: "sec/op"}
				for side, want := range o {
					s := d.Samples[side][k]
					if assert.Equal(t, want, s != nil, "%s in the %s", k.ID, engine.Side(side)) && want {
						assert.Equal(t, 1, s.H.Len())
					}
				}
			}
			assert.True(t, slices.ContainsFunc(raw.Notes, func(n string) bool { return strings.HasPrefix(n, "base: ") }), "the default base is noted: %q", raw.Notes)
		})
	}
}

// TestKeptForTheSteps: until Close, a Raw keeps what the steps after the
// verdicts run on: each version's test binaries and worktree, and the
// schedule's random source; a benchmark or a command measured then gets
// one value per run of each trial in each version.
func TestKeptForTheSteps(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	var commands []engine.Event // the application command's runs
	raw, err := engine.Run(context.Background(), engine.Plan{Dir: dir, CacheDir: "off", Out: t.TempDir(), Bench: "Faster",
		Schedule: engine.Schedule{Trials: 2, Runs: 1, Count: 1, BenchTime: "1x", Seed: 1}, Progress: func(ev engine.Event) {
			if ev.Kind == engine.EventRun && ev.Name == engine.CommandName {
				commands = append(commands, ev)
			}
		}})
	require.NoError(t, err)
	defer raw.Close()

	bins, ok := raw.Binaries(cmpfixture.Package, cmpfixture.Faster)
	require.True(t, ok)
	for side, b := range bins {
		assert.FileExists(t, b.Path, "%s binary", engine.Side(side))
		assert.DirExists(t, b.Dir)
		assert.DirExists(t, raw.Dir(engine.Side(side)))
	}
	_, ok = raw.Binaries(cmpfixture.Package, cmpfixture.Slower)
	assert.False(t, ok, "no unit ran BenchmarkSlower")
	assert.ElementsMatch(t, []engine.Side{engine.Base, engine.Head}, raw.SideOrder())

	// BenchmarkSlower was not selected: its package is built, so it is
	// measured now.
	d, id, err := raw.MeasureBenchmark(context.Background(), cmpfixture.Slower)
	require.NoError(t, err)
	assert.Equal(t, benchname.ID(cmpfixture.Package, cmpfixture.Slower), id)
	for side := range 2 {
		s := d.Samples[side][engine.Key{ID: id, Unit: "sec/op"}]
		if assert.NotNil(t, s, "%s", engine.Side(side)) {
			assert.Equal(t, 2, s.H.Trials())
		}
	}
	_, _, err = raw.MeasureBenchmark(context.Background(), "BenchmarkNoSuch")
	assert.ErrorContains(t, err, "no compared package has the benchmark BenchmarkNoSuch")

	h, err := raw.MeasureCommand(context.Background(), measure.Time, "sleep 0.01", raw.Env())
	require.NoError(t, err)
	for side := range h {
		assert.Equal(t, 2, h[side].Trials(), "%s", engine.Side(side))
		assert.Equal(t, 2, h[side].Len())
	}
	// Each run is reported with how long it took (the progress printed
	// 0.00s), under no package.
	require.Len(t, commands, 4, "one event per run of each version")
	for _, ev := range commands {
		assert.Empty(t, ev.Package)
		assert.GreaterOrEqual(t, ev.Wall, 10*time.Millisecond, "the run's wall time")
	}
}

// TestParallelRoundShowsProgress: under the instructions metric the
// measurements of a round run in parallel, and each is recorded (and its
// progress event sent) as soon as it and those before it are done, not
// once the whole round is: a round of 300 benchmarks under Valgrind ran
// minutes without a line of progress. With 6 measurements two at a time
// the first event comes about a third of the way in; recording after the
// round put it at the very end.
func TestParallelRoundShowsProgress(t *testing.T) {
	need.Tool(t, "the instructions metric", "valgrind")
	if testing.Short() {
		t.Skip("counts 6 benchmark processes under Valgrind")
	}
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	var first time.Duration
	var runs []engine.Event
	start := time.Now()
	raw, err := engine.Run(context.Background(), engine.Plan{Dir: dir, CacheDir: "off", Out: t.TempDir(),
		Schedule: engine.Schedule{Metric: measure.Instructions, Jobs: 2, Trials: 1, Runs: 1, Count: 1, BenchTime: "100ms", Seed: 1},
		Progress: func(ev engine.Event) {
			if ev.Kind != engine.EventRun {
				return
			}
			if len(runs) == 0 {
				first = time.Since(start)
			}
			runs = append(runs, ev)
		}})
	require.NoError(t, err)
	total := time.Since(start)
	raw.Close()
	require.Len(t, runs, 6, "3 benchmarks in 2 versions")
	for i, ev := range runs {
		assert.Equal(t, i+1, ev.Done, "events in order, counted")
		assert.NoError(t, ev.Err)
	}
	assert.Less(t, first.Seconds(), 0.75*total.Seconds(), "the first measurement's progress came at %s of %s", first, total)
}
