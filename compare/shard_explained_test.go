package compare_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/relevance/shard"
)

// TestMergeCarriesExplained: compare merge gives each result what its
// shard found beyond the raw files, its culprits, how they were found and
// its estimated application impact, and copies its profiles into the
// merged output (issue 30 item 5: a sharded comparison had none).
func TestMergeCarriesExplained(t *testing.T) {
	raw := func(side, name string, trial int) []byte {
		head := side == "head"
		v := map[bool]string{false: "100", true: "120"}[head && name == "BenchmarkA"]
		var b strings.Builder
		b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/m\n")
		for run := 1; run <= 2; run++ {
			b.WriteString("# mbopt-compare side=" + side + " commit=" + map[bool]string{false: "aaa", true: "bbb"}[head] + " trial=" + string(rune('0'+trial)) + " run=" + string(rune('0'+run)) + "\n")
			for range 3 {
				b.WriteString(name + " 1 " + v + " ns/op\n")
			}
		}
		return []byte(b.String())
	}
	explained := func(who string) compare.Result {
		return compare.Result{ID: "example.com/m.BenchmarkA", Package: "example.com/m", Name: "BenchmarkA", Unit: "sec/op", Status: compare.Compared,
			Culprits:  []culprit.Culprit{{Function: "example.com/m.parse" + who, Base: 80, Head: 100, Delta: 20, Kind: culprit.KindChanged, Share: 1, InApp: true}},
			Explained: &compare.Explained{Measurements: [2]int{5, 5}, Tested: 4, Noise: 3},
			AppImpact: &culprit.AppImpact{Estimate: 0.05, Low: 0.04, High: 0.06, Basis: culprit.BasisFunctions, RelevantShare: 1},
			Profiles:  &compare.Profiles{Base: "culprits/a.base.pprof", Head: "culprits/a.head.pprof"}}
	}
	for _, kind := range []string{compare.ShardBenchmarks, compare.ShardTrials} {
		t.Run(kind, func(t *testing.T) {
			s := shardSettings()
			var dirs []string
			for k := range 2 {
				rec := compare.ShardRecord{Schema: compare.SchemaVersion, Kind: kind, Record: shard.Record{Index: k, Count: 2, Digest: "d1", Total: 2},
					Module: "example.com/m", Base: compare.Revision{Commit: "aaa"}, Head: compare.Revision{Commit: "bbb"}, Settings: s, Requested: s}
				var base, head []byte
				if kind == compare.ShardBenchmarks {
					name := []string{"BenchmarkA", "BenchmarkB"}[k]
					rec.Benchmarks, rec.Trials = []string{"example.com/m." + name}, []int{1, 2, 3}
					for trial := 1; trial <= 3; trial++ {
						base, head = append(base, raw("base", name, trial)...), append(head, raw("head", name, trial)...)
					}
				} else {
					rec.Benchmarks, rec.Trials, rec.Total = []string{"example.com/m.BenchmarkA", "example.com/m.BenchmarkB"}, []int{k + 1}, 2
					for _, name := range []string{"BenchmarkA", "BenchmarkB"} {
						base, head = append(base, raw("base", name, k+1)...), append(head, raw("head", name, k+1)...)
					}
				}
				if k == 0 || kind == compare.ShardTrials {
					rec.Explained = []compare.Result{explained(string(rune('0' + k)))}
				}
				dir := writeShardRaw(t, rec, base, head)
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "culprits"), 0o755))
				for _, f := range []string{"a.base.pprof", "a.head.pprof"} {
					require.NoError(t, os.WriteFile(filepath.Join(dir, "culprits", f), []byte(f+" of shard "+string(rune('0'+k))), 0o644))
				}
				dirs = append(dirs, dir)
			}
			out := filepath.Join(t.TempDir(), "merged")
			rep, err := compare.Merge(dirs, out, nil)
			require.NoError(t, err)
			var a, b *compare.Result
			for i := range rep.Results {
				r := &rep.Results[i]
				if r.Unit == "sec/op" && r.Name == "BenchmarkA" {
					a = r
				}
				if r.Unit == "sec/op" && r.Name == "BenchmarkB" {
					b = r
				}
			}
			require.NotNil(t, a)
			require.NotNil(t, b)
			require.Len(t, a.Culprits, 1)
			assert.Equal(t, "example.com/m.parse0", a.Culprits[0].Function, "shard 0's, the first that explained it")
			assert.Equal(t, &compare.Explained{Measurements: [2]int{5, 5}, Tested: 4, Noise: 3}, a.Explained)
			require.NotNil(t, a.AppImpact)
			assert.Equal(t, 0.05, a.AppImpact.Estimate)
			require.NotNil(t, a.Profiles)
			assert.Equal(t, filepath.Join(out, compare.CulpritDir, "a.base.pprof"), a.Profiles.Base)
			data, err := os.ReadFile(a.Profiles.Head)
			require.NoError(t, err)
			assert.Equal(t, "a.head.pprof of shard 0", string(data))
			assert.Nil(t, b.Culprits)
			assert.Nil(t, b.AppImpact)
			notes := strings.Join(rep.Notes, "\n")
			if kind == compare.ShardTrials {
				assert.Contains(t, notes, "culprits and application impacts from trial shard 0/2, each from that shard's trials only")
			} else {
				assert.NotContains(t, notes, "culprits and application impacts")
			}
		})
	}
}
