package history

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// TestMigrateFromV3: version 4 keeps each point's judgement and values,
// and --benchmem no longer splits a benchmark into two series (issue 23:
// "one benchmark split into separate series by an unexplained settings
// hash (the only difference was --benchmem)").
func TestMigrateFromV3(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v3.db")
	fixture, err := os.ReadFile("testdata/v3.sql")
	require.NoError(t, err)
	sqliteFile(t, path, string(fixture))

	s := open(t, path)
	v, err := s.version(ctx)
	require.NoError(t, err)
	assert.Equal(t, SchemaVersion, v)
	require.NoError(t, s.Check(ctx))

	set, err := s.Series(ctx, Query{Unit: "sec/op"})
	require.NoError(t, err)
	require.Len(t, set.Series, 2, "count 5 (with and without --benchmem) and count 10")
	byCount := map[int]Series{}
	for _, sr := range set.Series {
		byCount[sr.Settings.Count] = sr
	}
	five, ten := byCount[5], byCount[10]
	require.Len(t, five.Points, 2, "--benchmem alone does not split the series")
	assert.Equal(t, SettingsHash(compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Confidence: 0.99, Resamples: 10000}), five.SettingsHash)
	assert.Equal(t, "count 5", five.Distinct)
	assert.Equal(t, "count 10", ten.Distinct)
	second := five.Points[1]
	assert.Equal(t, commit('d'), second.Head.Commit)
	assert.Equal(t, benchstats.PotentialRegression, second.Verdict, "the verdict as judged then")
	assert.Equal(t, 0.02, second.Threshold, "backfilled from the comparison's settings")
	assert.Equal(t, 100.0, second.BaseValue)
	assert.Equal(t, 102.1, second.HeadValue)
	assert.Nil(t, second.Impact, "not stored before version 4")
	assert.Equal(t, 0.01, five.Points[0].Threshold)

	// The migrated database keeps what new comparisons judge by.
	r := report('a', 'e', 9, 0.01, map[string]float64{"BenchmarkA": 0.021})
	r.Results[0].Threshold = 0.05
	r.Results[0].Verdict = benchstats.Unchanged
	r.Results[0].Impact = &callgraph.Impact{Attributed: 0.4, Flat: 0.25, Functions: []string{"m.F"}}
	_, err = s.Add(ctx, r, testMachine)
	require.NoError(t, err)
	set, err = s.Series(ctx, Query{Unit: "sec/op", Benchmarks: []string{"BenchmarkA"}})
	require.NoError(t, err)
	var got Point
	for _, sr := range set.Series {
		for _, p := range sr.Points {
			if p.Head.Commit == commit('e') {
				got = p
			}
		}
	}
	assert.Equal(t, 0.05, got.Threshold)
	assert.Equal(t, benchstats.Unchanged, got.Verdict)
	assert.Equal(t, &callgraph.Impact{Attributed: 0.4, Flat: 0.25}, got.Impact)
	assert.Equal(t, 100.0, got.BaseValue)
	assert.InDelta(t, 102.1, got.HeadValue, 1e-9)
}

func TestSettingsDiff(t *testing.T) {
	a := compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Confidence: 0.99, Resamples: 10000, Seed: 1, Threshold: 0.01}
	for _, tc := range []struct {
		name string
		b    compare.Settings
		want []string
	}{
		{"same", a, nil},
		{"seed, threshold, benchmem: no difference", compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "1s", Confidence: 0.99, Resamples: 10000, Seed: 9, Threshold: 0.05, Benchmem: true}, nil},
		{"count and benchtime", compare.Settings{Trials: 3, Runs: 3, Count: 10, BenchTime: "2s", Confidence: 0.99, Resamples: 10000}, []string{"count 5", "benchtime 1s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, SettingsDiff(a, tc.b))
			assert.Equal(t, tc.want == nil, SettingsHash(a) == SettingsHash(tc.b), "the diff is empty exactly when the hashes agree")
		})
	}
}

func TestMachineOfRaw(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      Machine
	}{
		{"one machine", "# mbopt-compare side=head\ngoos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: Test CPU @ 2.0GHz\nBenchmarkA-8 1 2 ns/op\n",
			Machine{GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU @ 2.0GHz", GoVersion: "go1.26.8"}},
		{"two CPUs", "goos: linux\ncpu: B\nBenchmarkA 1 2 ns/op\ncpu: A\ncpu: B\n",
			Machine{GOOS: "linux", CPU: "A + B", GoVersion: "go1.26.8"}},
		{"no configuration", "BenchmarkA 1 2 ns/op\n", Machine{GoVersion: "go1.26.8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, MachineOfRaw([]byte(tc.raw), "go1.26.8"))
		})
	}
}
