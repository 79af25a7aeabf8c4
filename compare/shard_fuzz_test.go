package compare_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/relevance/shard"
)

// fuzzRaw is a raw result file of one benchmark.
const fuzzRaw = "# mbopt-compare side=base commit=aaa trial=1 run=1\ngoos: linux\npkg: example.com/m\nBenchmarkA 1 100 ns/op\nBenchmarkA 1 101 ns/op\n"

// FuzzShardRecord gives compare merge arbitrary shard directories: a
// shard.json and a raw file, as a truncated, edited or forged artifact of
// a CI job would be. ReadShard must return a record that passes its own
// checks or an error matching ErrMerge, never panic; and merging what it
// accepts must not panic either (issue 25).
func FuzzShardRecord(f *testing.F) {
	s := shardSettings()
	s.Resamples = 50
	rec := compare.ShardRecord{Schema: compare.SchemaVersion, Kind: compare.ShardBenchmarks,
		Record: shard.Record{Index: 0, Count: 1, Digest: "d1", Total: 1}, Module: "example.com/m",
		Base: compare.Revision{Commit: "aaa"}, Head: compare.Revision{Commit: "bbb"}, Settings: s, Requested: s,
		Benchmarks: []string{"example.com/m.BenchmarkA"}, Trials: []int{1, 2, 3},
		Files: map[string]shard.File{compare.BaseFile: shard.FileOf([]byte(fuzzRaw)), compare.HeadFile: shard.FileOf([]byte(fuzzRaw))}}
	good, err := json.Marshal(rec)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, []byte(fuzzRaw))
	f.Add(good, []byte(fuzzRaw[:40]))
	f.Add(good[:len(good)/2], []byte(fuzzRaw))
	trials := rec
	trials.Kind, trials.Count, trials.Index = compare.ShardTrials, 2, 1
	if b, err := json.Marshal(trials); err == nil {
		f.Add(b, []byte(fuzzRaw))
	}
	f.Add([]byte(`{"schema":1,"kind":"benchmarks","index":-1,"count":0}`), []byte(""))
	f.Add([]byte(`null`), []byte("x"))
	// One directory for every input: a fresh one per input would put the
	// file system's work (and its varying coverage) into every run.
	dir, out := f.TempDir(), filepath.Join(f.TempDir(), "out")
	f.Fuzz(func(t *testing.T, record, raw []byte) {
		for _, file := range []struct {
			name string
			data []byte
		}{{compare.ShardFile, record}, {compare.BaseFile, raw}, {compare.HeadFile, raw}} {
			if err := os.WriteFile(filepath.Join(dir, file.name), file.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := compare.ReadShard(dir)
		if err != nil {
			if !errors.Is(err, compare.ErrMerge) {
				t.Fatalf("ReadShard: %v, which does not match ErrMerge", err)
			}
			return
		}
		if !got.Valid() || (got.Kind != compare.ShardBenchmarks && got.Kind != compare.ShardTrials) {
			t.Fatalf("ReadShard accepted %+v", got)
		}
		for _, name := range []string{compare.BaseFile, compare.HeadFile} {
			if f := got.Files[name]; f != shard.FileOf(raw) {
				t.Fatalf("ReadShard accepted %s recorded as %+v, which is not the file", name, f)
			}
		}
		for _, r := range got.Failures {
			if r.Status != compare.Failed && r.Status != compare.BuildFailed && r.Status != compare.Skipped || r.Estimate != nil {
				t.Fatalf("ReadShard accepted the failure %+v", r)
			}
		}
		if got.Settings.Resamples > 200 || got.Count > 4 {
			return // a merge would only take longer
		}
		_, _ = compare.Merge([]string{dir}, out, nil)
	})
}
