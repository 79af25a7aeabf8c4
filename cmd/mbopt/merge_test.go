package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/manifest"
)

// exampleModule is the bundled example module the demo profiles.
const exampleModule = "../../testdata/example"

// shardCase is one TestShardedCollection scenario.
type shardCase struct {
	name     string
	patterns []string // package patterns to collect; nil: the whole module
}

// TestShardedCollection collects the example module in one run and in 3
// shards, merges the shards and checks that the merged collection is the
// unsharded one:
//
//   - shards collected from scratch (nothing known, so balanced by count)
//     give the same manifest header and entries apart from what each run
//     measures (timings, sample counts, profile bytes);
//   - shards that start from the unsharded collection (as CI jobs that
//     restore the last merged collection do: balanced by its recorded costs,
//     reusing unchanged profiles) merge into a byte-identical manifest, and
//     'mbopt analyze' prints byte-identical output for both; one of them
//     takes its index from JOB_COMPLETION_INDEX.
//
// One case collects one package (6 benchmarks, 7 collections); the whole
// module (23 benchmarks) takes about 35 s on an idle 2-core machine. Both
// are skipped with -short ('make test-short'), the one switch for slow
// tests.
func TestShardedCollection(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's benchmarks 7 times")
	}
	t.Setenv("CI", "true")
	for _, tc := range []shardCase{
		{name: "package encoding", patterns: []string{"./encoding"}},
		{name: "whole module"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testShardedCollection(t, tc)
		})
	}
}

func testShardedCollection(t *testing.T, tc shardCase) {
	root := t.TempDir()
	profile := func(out string, extra ...string) string {
		t.Helper()
		args := append([]string{"profile", "-C", exampleModule, "--benchtime", "10ms", "--out", out}, extra...)
		code, _, stderr := run(t, append(args, tc.patterns...)...)
		require.Equal(t, 0, code, stderr)
		return stderr
	}
	merge := func(out string, dirs ...string) {
		t.Helper()
		code, stdout, stderr := run(t, append(append([]string{"merge"}, dirs...), "-o", out)...)
		require.Equal(t, 0, code, stderr)
		assert.Equal(t, out+"\n", stdout)
	}
	app, err := filepath.Abs(exampleDir + "/app.pprof")
	require.NoError(t, err)
	// analyze runs in dir, so that the paths it prints are the same for
	// two directories.
	analyze := func(dir string) string {
		t.Helper()
		wd, err := os.Getwd()
		require.NoError(t, err)
		require.NoError(t, os.Chdir(dir))
		defer func() { require.NoError(t, os.Chdir(wd)) }()
		code, stdout, stderr := run(t, "analyze", "--app", app, "--micro", ".",
			"--module", "example.com/tinytsdb", "--recommend", "3")
		require.Equal(t, 0, code, stderr)
		return stdout
	}

	whole := filepath.Join(root, "whole")
	profile(whole)
	u, err := manifest.Load(whole)
	require.NoError(t, err)
	require.NotEmpty(t, u.Benchmarks)
	require.Equal(t, len(u.Benchmarks), u.Count(manifest.StatusOK))

	// From scratch: balanced by count.
	var fresh []string
	for k := range 3 {
		d := filepath.Join(root, fmt.Sprintf("fresh-%d", k))
		stderr := profile(d, "--shard", fmt.Sprintf("%d/3", k))
		assert.Contains(t, stderr, fmt.Sprintf("(shard %d/3: ", k))
		fresh = append(fresh, d)
	}
	for k, d := range fresh {
		m, err := manifest.Load(d)
		require.NoError(t, err)
		require.NotNil(t, m.Shard)
		assert.True(t, m.Shard.ByCount && m.Shard.Complete, "shard %d: %+v", k, m.Shard)
		assert.InDelta(t, float64(len(u.Benchmarks))/3, len(m.Benchmarks), 1, "shard %d: counts balanced", k)
	}
	freshMerged := filepath.Join(root, "fresh-merged")
	merge(freshMerged, fresh...)
	fm, err := manifest.Load(freshMerged)
	require.NoError(t, err)
	assert.Equal(t, withoutMeasurements(u), withoutMeasurements(fm))
	assert.NotEmpty(t, analyze(freshMerged))

	// From the unsharded collection: balanced by its costs, profiles reused.
	var seeded []string
	for k := range 3 {
		d := filepath.Join(root, fmt.Sprintf("seeded-%d", k))
		require.NoError(t, os.CopyFS(d, os.DirFS(whole)))
		spec := fmt.Sprintf("%d/3", k)
		if k == 2 {
			t.Setenv("JOB_COMPLETION_INDEX", "2")
			spec = "/3"
		}
		stderr := profile(d, "--shard", spec)
		assert.Contains(t, stderr, "reused from an earlier run")
		seeded = append(seeded, d)
	}
	merged := filepath.Join(root, "merged")
	merge(merged, seeded...)
	want, err := os.ReadFile(filepath.Join(whole, manifest.FileName))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(merged, manifest.FileName))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "merged manifest")
	assert.Equal(t, analyze(whole), analyze(merged), "analyze output")

	// The cost-balanced shares keep LPT's bound: the slowest shard costs
	// at most the largest benchmark, or the ideal plus the 4th largest
	// benchmark (see package shard; the 10% claim on suites with more
	// benchmarks per shard is tested there).
	costs := u.Costs()
	var loads []float64
	var sorted []float64
	for _, c := range costs {
		sorted = append(sorted, c)
	}
	slices.Sort(sorted)
	slices.Reverse(sorted)
	total, largest := 0.0, 0.0
	for _, d := range seeded {
		m, err := manifest.Load(d)
		require.NoError(t, err)
		require.False(t, m.Shard.ByCount)
		l := 0.0
		for _, e := range m.Benchmarks {
			l += costs[e.ID]
			largest = max(largest, costs[e.ID])
		}
		loads = append(loads, l)
		total += l
	}
	t.Logf("shard loads %.2f s, ideal %.2f s (slowest +%.1f%%), largest benchmark %.2f s",
		loads, total/3, 100*(slices.Max(loads)/(total/3)-1), largest)
	for _, l := range loads {
		assert.LessOrEqual(t, l, max(largest, total/3+sorted[3])+1e-9)
	}
}

// withoutMeasurements returns m with what differs between two runs of the
// same benchmarks cleared: timings, sample counts and profile hashes.
func withoutMeasurements(m *manifest.Manifest) *manifest.Manifest {
	c := *m
	c.Benchmarks = nil
	for _, e := range m.Benchmarks {
		e.WallSeconds, e.NsPerOp, e.Iterations, e.Samples, e.ProfileSHA256 = 0, 0, 0, 0, ""
		c.Benchmarks = append(c.Benchmarks, e)
	}
	return &c
}
