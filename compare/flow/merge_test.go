package flow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/relevance/shard"
)

// writeShard writes the output of benchmark shard k of 2 of a comparison
// where BenchmarkA (shard 0) takes 120 ns/op at the head instead of 100
// and BenchmarkB (shard 1) does not change. With app the shard ran with the
// analysis (ShardRecord.Application), and shard 0 explained BenchmarkA,
// estimating the application impact +5%.
func writeShard(t *testing.T, k int, app bool) string {
	t.Helper()
	name := []string{"BenchmarkA", "BenchmarkB"}[k]
	raw := func(side string) []byte {
		v := "100"
		if side == "head" && name == "BenchmarkA" {
			v = "120"
		}
		var b strings.Builder
		b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/m\n")
		for trial := 1; trial <= 3; trial++ {
			for run := 1; run <= 2; run++ {
				fmt.Fprintf(&b, "# mbopt-compare side=%s commit=%s trial=%d run=%d\n", side, map[string]string{"base": "aaa", "head": "bbb"}[side], trial, run)
				for range 3 {
					b.WriteString(name + " 1 " + v + " ns/op\n")
				}
			}
		}
		return []byte(b.String())
	}
	s := compare.DefaultSettings()
	s.Trials, s.Runs, s.Count, s.BenchTime, s.Metric = 3, 2, 3, "10ms", measure.Time
	base, head := raw("base"), raw("head")
	rec := compare.ShardRecord{Schema: compare.SchemaVersion, Kind: compare.ShardBenchmarks, Record: shard.Record{Index: k, Count: 2, Digest: "d1", Total: 2},
		Module: "example.com/m", Base: compare.Revision{Commit: "aaa"}, Head: compare.Revision{Commit: "bbb"}, Settings: s, Requested: s,
		Benchmarks: []string{"example.com/m." + name}, Trials: []int{1, 2, 3},
		Files: map[string]shard.File{compare.BaseFile: shard.FileOf(base), compare.HeadFile: shard.FileOf(head)}}
	rec.Application = app
	if k == 0 && app {
		rec.Explained = []compare.Result{{ID: "example.com/m.BenchmarkA", Package: "example.com/m", Name: "BenchmarkA", Unit: "sec/op", Status: compare.Compared,
			Culprits:  []culprit.Culprit{{Function: "example.com/m.parse", Base: 80, Head: 100, Delta: 20, Kind: culprit.KindChanged, Share: 1, InApp: true}},
			Explained: &compare.Explained{Measurements: [2]int{5, 5}, Tested: 4, Noise: 3},
			AppImpact: &culprit.AppImpact{Estimate: 0.05, Low: 0.04, High: 0.06, Basis: culprit.BasisFunctions, RelevantShare: 1}}}
	}
	data, err := json.Marshal(rec)
	require.NoError(t, err)
	dir := t.TempDir()
	for file, content := range map[string][]byte{compare.ShardFile: data, compare.BaseFile: base, compare.HeadFile: head} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, file), content, 0o644))
	}
	return dir
}

// TestMergeGatesOnAppImpact: compare merge --fail-on app-impact judges the
// application impact the shards estimated and the merge carries, against
// its own threshold (it was refused: "a merge finds no culprit functions",
// which stopped being true when the merge began to carry them).
func TestMergeGatesOnAppImpact(t *testing.T) {
	dirs := []string{writeShard(t, 0, true), writeShard(t, 1, true)}
	threshold := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name      string
		threshold *float64
		fails     bool
	}{
		{"the default 0.1%: +5% fails", nil, true},
		{"at 1%: +5% fails", threshold(0.01), true},
		{"at 10%: +5% passes", threshold(0.1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := flow.Merge(context.Background(), flow.MergeConfig{Dirs: dirs, Out: t.TempDir(), NoHistory: true, FailOn: compare.FailOnAppImpact, AppImpactThreshold: tc.threshold})
			require.NoError(t, err)
			var a *compare.Result
			for i := range rep.Results {
				if r := &rep.Results[i]; r.Name == "BenchmarkA" && r.Unit == "sec/op" {
					a = r
				}
			}
			require.NotNil(t, a)
			require.Equal(t, benchstats.DefiniteRegression, a.Verdict)
			require.NotNil(t, a.AppImpact, "the shard's estimate is carried")
			var failed []string
			for _, r := range rep.Gate(compare.FailOnAppImpact) {
				failed = append(failed, r.Name)
			}
			if tc.fails {
				assert.Equal(t, []string{"BenchmarkA"}, failed)
			} else {
				assert.Empty(t, failed)
			}
		})
	}
	// A threshold without the gate, or out of range, is refused before
	// anything is merged.
	out := filepath.Join(t.TempDir(), "merged")
	for _, cfg := range []flow.MergeConfig{
		{Dirs: dirs, Out: out, NoHistory: true, FailOn: compare.FailOnDefiniteRegression, AppImpactThreshold: threshold(0.01)},
		{Dirs: dirs, Out: out, NoHistory: true, FailOn: compare.FailOnAppImpact, AppImpactThreshold: threshold(1)},
	} {
		_, err := flow.Merge(context.Background(), cfg)
		require.ErrorIs(t, err, mbopt.ErrInput)
		assert.Contains(t, err.Error(), "AppImpactThreshold")
		assert.NoDirExists(t, out)
	}
}

// TestMergeAppImpactNeedsAnalysis: compare merge --fail-on app-impact over
// shards that ran without the analysis flags is refused before anything
// is written, as a single compare refuses it; over shards of which only
// some did, too, naming those that did not (it used to gate silently as
// --fail-on definite-regression: issue 31). Other gates merge them all.
func TestMergeAppImpactNeedsAnalysis(t *testing.T) {
	with0, with1 := writeShard(t, 0, true), writeShard(t, 1, true)
	without0, without1 := writeShard(t, 0, false), writeShard(t, 1, false)
	for _, tc := range []struct {
		name   string
		dirs   []string
		failOn compare.FailOn
		want   []string // the refusal's words; none: the merge succeeds
	}{
		{"none ran with it", []string{without0, without1}, compare.FailOnAppImpact,
			[]string{"FailOn app-impact needs the analysis flags (Config.Analysis.App, Config.Analysis.Micro): the 2 shards given ran without them (their shard.json says so), so no shard estimated the application impact", "or gate with Config.FailOn definite-regression"}},
		{"the first did not", []string{without0, with1}, compare.FailOnAppImpact,
			[]string{"1 of the 2 shards given ran without them (" + without0 + "), so its definite regressions would fail whatever their application impact", "which is not one gate", "run every shard with the analysis flags, or gate with Config.FailOn definite-regression"}},
		{"the second did not", []string{with0, without1}, compare.FailOnAppImpact,
			[]string{"1 of the 2 shards given ran without them (" + without1 + ")"}},
		{"all ran with it", []string{with0, with1}, compare.FailOnAppImpact, nil},
		{"another gate needs none", []string{without0, without1}, compare.FailOnDefiniteRegression, nil},
		{"another gate merges a mixture", []string{with0, without1}, compare.FailOnAnyRegression, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			out, hist := filepath.Join(work, "merged"), filepath.Join(work, "history.db")
			rep, err := flow.Merge(context.Background(), flow.MergeConfig{Dirs: tc.dirs, Out: out, History: hist, FailOn: tc.failOn})
			if tc.want == nil {
				require.NoError(t, err)
				require.NotNil(t, rep)
				assert.FileExists(t, filepath.Join(out, compare.HeadFile))
				return
			}
			require.ErrorIs(t, err, mbopt.ErrInput)
			assert.Nil(t, rep)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
			entries, _ := os.ReadDir(work)
			assert.Empty(t, entries, "nothing is written: no merge, no history")
		})
	}
	// A shard that cannot be read is refused as the merge refuses it.
	_, err := flow.Merge(context.Background(), flow.MergeConfig{Dirs: []string{with0, t.TempDir()}, Out: filepath.Join(t.TempDir(), "merged"), NoHistory: true, FailOn: compare.FailOnAppImpact})
	require.ErrorIs(t, err, compare.ErrMerge)
	assert.Contains(t, err.Error(), "it is not the output of mbopt compare --shard or --trial-shard")
}
