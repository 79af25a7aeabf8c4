package compare_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/relevance/shard"
)

// skippingModule is a module whose benchmarks skip themselves as those of
// github.com/golang/snappy do without their test data: BenchmarkData in
// both versions, with a line it logs before its skip; BenchmarkDict only
// with headSkips (it runs in the base); BenchmarkSubs/skip in both, beside
// the siblings BenchmarkSubs/a and BenchmarkSubs/c, which run;
// BenchmarkLate and BenchmarkSubs/late after their first run (b.N > 1),
// where go test prints a result of 0 iterations, "0 NaN ns/op", and no
// SKIP line; BenchmarkLater at any b.N but those of a normal run at 20x
// (1 and 20), so it skips only in the counting metrics' measurements
// (and Callgrind's inspection, at 2) after their normal run.
func skippingModule(headSkips bool) string {
	return fmt.Sprintf(`package s

import "testing"

`+workSource(500)+`
const headSkips = %t

func BenchmarkData(b *testing.B) {
	b.Log("looking for testdata/big.txt")
	b.Skip("test data not found; skipping benchmark without the -download flag")
}

func BenchmarkDict(b *testing.B) {
	if headSkips {
		b.Skipf("skipping benchmark: open %%s: no such file or directory", "/usr/share/dict/words")
	}
	work(b)
}

func BenchmarkSubs(b *testing.B) {
	b.Run("a", work)
	b.Run("skip", func(b *testing.B) { b.Skip("no input") })
	b.Run("c", work)
	b.Run("late", func(b *testing.B) {
		if b.N > 1 {
			b.SkipNow()
		}
		work(b)
	})
}

func BenchmarkLater(b *testing.B) {
	if b.N != 1 && b.N != 20 {
		b.Skip("runs only at 20x")
	}
	work(b)
}

func BenchmarkLate(b *testing.B) {
	if b.N > 1 {
		b.Skip("too slow for more than one run")
	}
	work(b)
}
`, headSkips)
}

// TestSkippedBenchmarks: a benchmark that skips itself (b.Skip) is
// skipped, in the version where it did, with what it logged, under every
// metric; it was "failed (both) ...: the benchmark did not run (no result
// line in its output)" under instructions and cpu, and no result at all
// under time. A top-level benchmark that skips in both versions is one
// result, skipped in both; one that ran in the base and skips in the head
// is skipped in the head, with a note; a sub-benchmark that skips beside
// siblings that run is skipped and its siblings are compared. No skip
// fails the gate. A benchmark that skips after its first run is skipped
// alike: its "0 NaN ns/op" was a result, which ended the comparison
// under time ("benchstats: measurement NaN is not finite") and was
// compared under cpu and instructions. One that skips
// only in the counting metrics' own measurements (BenchmarkLater) is
// skipped under cpu and instructions, without a note that its call graph
// could not be read (there were two, one per version), and compared
// under time.
func TestSkippedBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two comparisons; skipped with -short")
	}
	r := twoVersions(t, "s/s_test.go", skippingModule)
	cache := t.TempDir()
	for _, metric := range []measure.Metric{measure.Time, measure.CPU, measure.Instructions} {
		t.Run(string(metric), func(t *testing.T) {
			s := compare.Settings{Trials: 2, Runs: 1, Count: 2, BenchTime: "20x", Seed: 1, Resamples: 200, Metric: metric, TargetMDE: -1}
			if metric == measure.Instructions {
				needValgrind(t)
			}
			if metric != measure.Time {
				s.Count = 1
			}
			later := struct {
				name   string
				status compare.Status
				side   string
				error  string
			}{"BenchmarkLater", compare.Skipped, "both", "s_test.go:45: runs only at 20x"}
			if metric == measure.Time {
				later.status, later.side, later.error = compare.Compared, "", ""
			}
			rep, err := compare.Run(context.Background(), compare.Options{Dir: r.Dir, Base: "base", Head: "HEAD", Settings: s, CacheDir: cache, Out: t.TempDir()})
			if err != nil {
				t.Fatalf("the comparison ended: %v", err)
			}
			got := map[string][]compare.Result{}
			for _, res := range rep.Results {
				got[res.Name] = append(got[res.Name], res)
			}
			for _, tc := range []struct {
				name   string
				status compare.Status
				side   string
				error  string
			}{
				{"BenchmarkData", compare.Skipped, "both", "s_test.go:20: looking for testdata/big.txt\ns_test.go:21: test data not found; skipping benchmark without the -download flag"},
				{"BenchmarkDict", compare.Skipped, "head", "s_test.go:26: skipping benchmark: open /usr/share/dict/words: no such file or directory"},
				{"BenchmarkSubs/a", compare.Compared, "", ""},
				{"BenchmarkSubs/skip", compare.Skipped, "both", "s_test.go:33: no input"},
				{"BenchmarkSubs/c", compare.Compared, "", ""},
				{"BenchmarkSubs/late", compare.Skipped, "both", engine.SkippedNoMessage},
				{"BenchmarkLate", compare.Skipped, "both", "s_test.go:52: too slow for more than one run"},
				later,
			} {
				if len(got[tc.name]) == 0 {
					t.Errorf("%s: no result", tc.name)
				}
				for _, res := range got[tc.name] {
					if res.Status != tc.status || res.Side != tc.side || res.Error != tc.error {
						t.Errorf("%s %s: %s in %q: %q; want %s in %q: %q", tc.name, res.Unit, res.Status, res.Side, res.Error, tc.status, tc.side, tc.error)
					}
				}
			}
			if len(got["BenchmarkData"]) != 1 || len(got["BenchmarkSubs/skip"]) != 1 {
				t.Errorf("a benchmark that skipped in both versions is one result: %d, %d", len(got["BenchmarkData"]), len(got["BenchmarkSubs/skip"]))
			}
			if notes := strings.Join(rep.Notes, "\n"); strings.Contains(notes, "could not read its call graph") {
				t.Errorf("a note on the call graph of a benchmark that skipped itself:\n%s", notes)
			}
			if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, "example.com/m/s.BenchmarkDict ran in the base and skipped itself in the head (s_test.go:26: skipping benchmark: open /usr/share/dict/words: no such file or directory): it is not compared, and no gate fails on it") {
				t.Errorf("no note says BenchmarkDict ran in the base only:\n%s", notes)
			}
			for _, f := range compare.FailOns {
				if err := rep.GateError(f); err != nil {
					t.Errorf("a skip failed the gate %s: %v", f, err)
				}
			}
			if t.Failed() {
				for _, res := range rep.Results {
					t.Logf("%s %s %s %s %q", res.Name, res.Unit, res.Status, res.Side, res.Error)
				}
			}
		})
	}
}

// TestMergeCarriesSkipped: compare merge keeps a shard's skipped
// benchmarks as the shard recorded them (shard.json's failures): one
// skipped in both versions, and one that ran in the base and skipped in
// the head, which the raw files alone make look removed.
func TestMergeCarriesSkipped(t *testing.T) {
	raw := func(side, name string) []byte {
		var b strings.Builder
		b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/m\n")
		for trial := 1; trial <= 3; trial++ {
			fmt.Fprintf(&b, "# mbopt-compare side=%s commit=%s trial=%d run=1\n", side, map[string]string{"base": "aaa", "head": "bbb"}[side], trial)
			for range 3 {
				b.WriteString(name + " 1 100 ns/op\n")
			}
		}
		return []byte(b.String())
	}
	skipped := func(name, side, msg string) compare.Result {
		return compare.Result{ID: "example.com/m." + name, Package: "example.com/m", Name: name, Status: compare.Skipped, Side: side, Error: msg}
	}
	s := shardSettings()
	var dirs []string
	for k := range 2 {
		rec := compare.ShardRecord{Schema: compare.SchemaVersion, Kind: compare.ShardBenchmarks, Record: shard.Record{Index: k, Count: 2, Digest: "d1", Total: 3},
			Module: "example.com/m", Base: compare.Revision{Commit: "aaa"}, Head: compare.Revision{Commit: "bbb"}, Settings: s, Requested: s, Trials: []int{1, 2, 3}}
		var base, head []byte
		if k == 0 {
			rec.Benchmarks = []string{"example.com/m.BenchmarkA"}
			base, head = raw("base", "BenchmarkA"), raw("head", "BenchmarkA")
		} else {
			rec.Benchmarks = []string{"example.com/m.BenchmarkB", "example.com/m.BenchmarkC"}
			base, head = raw("base", "BenchmarkB"), []byte("goos: linux\n")
			rec.Failures = []compare.Result{skipped("BenchmarkB", "head", "b_test.go:3: no dictionary"), skipped("BenchmarkC", "both", "c_test.go:5: no test data")}
		}
		dirs = append(dirs, writeShardRaw(t, rec, base, head))
	}
	rep, err := compare.Merge(dirs, filepath.Join(t.TempDir(), "merged"), nil)
	require.NoError(t, err)
	var got []string
	for _, r := range rep.Results {
		got = append(got, fmt.Sprintf("%s %s %s %s %q", r.Name, r.Unit, r.Status, r.Side, r.Error))
	}
	assert.Equal(t, []string{
		`BenchmarkA sec/op compared  ""`,
		`BenchmarkB  skipped head "b_test.go:3: no dictionary"`,
		`BenchmarkC  skipped both "c_test.go:5: no test data"`,
	}, got)
}
