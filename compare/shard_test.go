package compare_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/relevance/shard"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/counted"
	"github.com/mbopt/mbopt/testkit/need"
)

// TestShardedVerdicts: the fixture compared in 2 benchmark shards and in 3
// trial shards, each merged, gives the verdicts of the unsharded run on the
// same seed.
func TestShardedVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fixture's comparison three times")
	}
	// Instruction counts: the verdicts are what it checks, and the
	// fixture's -30% in CPU time was once judged "unchanged" by three
	// merged trial shards under the load of the parallel packages.
	need.Tool(t, "TestShardedVerdicts (instruction-count verdicts)", "valgrind")
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	cache := t.TempDir()
	const seed = 1
	run := func(o compare.Options) *compare.Report {
		t.Helper()
		o.Dir, o.Settings, o.CacheDir = dir, counted.Settings(quick(seed)), cache
		rep, err := compare.Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	whole := run(compare.Options{Out: t.TempDir()})
	want := verdicts(whole)
	for _, tc := range []struct {
		name string
		n    int
		spec func(k, n int) compare.Options
	}{
		{"benchmarks", 2, func(k, n int) compare.Options { return compare.Options{Shard: shard.Spec{Index: k, Count: n}} }},
		{"trials", 3, func(k, n int) compare.Options { return compare.Options{TrialShard: shard.Spec{Index: k, Count: n}} }},
		{"suite", 2, func(k, n int) compare.Options {
			var bs []compare.Benchmark
			for _, name := range []string{cmpfixture.Slower, cmpfixture.Faster, cmpfixture.Same} {
				bs = append(bs, compare.Benchmark{Package: cmpfixture.Package, Name: name})
			}
			// As mbopt compare's analysis flags give it: the record says
			// so, for a merge's --fail-on app-impact.
			app := &callgraph.Application{Shares: map[string]float64{}}
			return compare.Options{Shard: shard.Spec{Index: k, Count: n}, Benchmarks: bs, Relevance: compare.Relevance{Application: app}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dirs []string
			seen := map[string]int{}
			for k := range tc.n {
				o := tc.spec(k, tc.n)
				o.Out = t.TempDir()
				rep := run(o)
				dirs = append(dirs, o.Out)
				for name := range verdicts(rep) {
					seen[name]++
				}
				rec, err := compare.ReadShard(o.Out)
				if err != nil {
					t.Fatal(err)
				}
				kind := map[bool]string{true: compare.ShardTrials, false: compare.ShardBenchmarks}[tc.name == "trials"]
				if rec.Index != k || rec.Count != tc.n || rec.Kind != kind || rec.Total != 3 || rec.Application != (tc.name == "suite") {
					t.Errorf("shard %d: record %+v", k, rec)
				}
			}
			for _, name := range []string{cmpfixture.Slower, cmpfixture.Faster, cmpfixture.Same} {
				wantRuns := 1
				if tc.name == "trials" {
					wantRuns = tc.n // every trial shard measures every benchmark
				}
				if seen[name] != wantRuns {
					t.Errorf("%s measured by %d shards, want %d", name, seen[name], wantRuns)
				}
			}
			merged, err := compare.Merge(dirs, filepath.Join(t.TempDir(), "merged"), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := verdicts(merged)
			for _, name := range []string{cmpfixture.Slower, cmpfixture.Faster} {
				if got[name] != want[name] {
					t.Errorf("%s: merged %s, unsharded %s", name, got[name], want[name])
				}
			}
			if got[cmpfixture.Same].Definite() {
				t.Errorf("%s: merged %s, want not definite", cmpfixture.Same, got[cmpfixture.Same])
			}
			if want[cmpfixture.Slower] != benchstats.DefiniteRegression {
				t.Errorf("unsharded %s is %s", cmpfixture.Slower, want[cmpfixture.Slower])
			}
			for _, r := range merged.Results {
				if r.Unit == "sec/op" && r.Trials != 3 {
					t.Errorf("%s: merged %d trials, want all 3", r.Name, r.Trials)
				}
			}
			// A benchmark shard explains its changes as the whole run does,
			// and the merge carries that (issue 30 item 5).
			for _, w := range whole.Results {
				if w.Explained == nil || tc.name == "trials" {
					continue
				}
				for _, r := range merged.Results {
					if r.ID == w.ID && r.Unit == w.Unit && (r.Explained == nil || r.Profiles == nil) {
						t.Errorf("%s (%s): the unsharded run explained it, the merge has no culprits (explained %v, profiles %v)", r.Name, r.Unit, r.Explained, r.Profiles)
					}
				}
			}
		})
	}
}

// writeShard writes a shard directory with a record and empty raw files.
func writeShard(t *testing.T, rec compare.ShardRecord) string {
	t.Helper()
	return writeShardRaw(t, rec, nil, nil)
}

// writeShardRaw writes a shard directory with a record and the raw files
// base and head, recording their sizes and hashes unless rec has them.
func writeShardRaw(t *testing.T, rec compare.ShardRecord, base, head []byte) string {
	t.Helper()
	dir := t.TempDir()
	if rec.Files == nil {
		rec.Files = map[string]shard.File{compare.BaseFile: shard.FileOf(base), compare.HeadFile: shard.FileOf(head)}
	}
	data, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{compare.ShardFile: data, compare.BaseFile: base, compare.HeadFile: head} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestMergeRefuses(t *testing.T) {
	good := func(k int) compare.ShardRecord {
		return compare.ShardRecord{Schema: compare.SchemaVersion, Kind: compare.ShardBenchmarks, Record: shard.Record{Index: k, Count: 2, Digest: "d1", Total: 2},
			Module: "example.com/m", Base: compare.Revision{Commit: "aaa"}, Head: compare.Revision{Commit: "bbb"},
			Settings: shardSettings(), Requested: shardSettings(), Benchmarks: []string{[]string{"example.com/m.BenchmarkA", "example.com/m.BenchmarkB"}[k]}}
	}
	for _, tc := range []struct {
		name   string
		second func(r *compare.ShardRecord)
		dirs   func(a, b string) []string
		want   string
	}{
		{"other head", func(r *compare.ShardRecord) { r.Head.Commit = "ccc" }, nil, "every shard must compare the same commits"},
		{"other settings", func(r *compare.ShardRecord) { r.Settings.Seed, r.Requested.Seed = 9, 9 }, nil, "different settings (seed 1 ≠ 9)"},
		{"other count", func(r *compare.ShardRecord) { r.Count = 3 }, nil, "is shard 1/3"},
		{"other kind", func(r *compare.ShardRecord) { r.Kind = compare.ShardTrials }, nil, "by trials"},
		{"other partition", func(r *compare.ShardRecord) { r.Digest = "d2" }, nil, "partitioned different benchmarks"},
		{"other module", func(r *compare.ShardRecord) { r.Module = "example.com/n" }, nil, "module example.com/n"},
		{"same index twice", func(r *compare.ShardRecord) { r.Index = 0 }, nil, "are both shard 0/2 (overlapping shards)"},
		{"benchmark in two shards", func(r *compare.ShardRecord) { r.Benchmarks = []string{"example.com/m.BenchmarkA"} }, nil, "is in both"},
		{"uncommitted changes", func(r *compare.ShardRecord) { r.Head.Dirty = true }, nil, "uncommitted changes"},
		{"share lost", func(r *compare.ShardRecord) { r.Benchmarks = nil }, nil, "hold 1 benchmark, but 2 were partitioned"},
		{"forged failure", func(r *compare.ShardRecord) {
			r.Failures = []compare.Result{{ID: "example.com/m.BenchmarkB", Status: compare.Compared, Verdict: benchstats.DefiniteImprovement,
				Estimate: &benchstats.Estimate{Change: -0.5, CI: benchstats.Interval{Low: -0.1, High: -0.9}}}}
		}, nil, "is not a failed, unbuilt or skipped benchmark"},
		{"missing shard", nil, func(a, b string) []string { return []string{a} }, "missing 1 shard of 2: shard 1/2"},
		{"directory twice", nil, func(a, b string) []string { return []string{a, a} }, "given twice"},
		{"not a shard", nil, func(a, b string) []string { return []string{a, t.TempDir()} }, "has no shard.json"},
		{"no directories", nil, func(a, b string) []string { return nil }, "no shard directories"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := writeShard(t, good(0))
			second := good(1)
			if tc.second != nil {
				tc.second(&second)
			}
			b := writeShard(t, second)
			dirs := []string{a, b}
			if tc.dirs != nil {
				dirs = tc.dirs(a, b)
			}
			out := filepath.Join(t.TempDir(), "out")
			_, err := compare.Merge(dirs, out, nil)
			if !errors.Is(err, compare.ErrMerge) {
				t.Fatalf("err = %v, want ErrMerge", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q, want it to say %q", err, tc.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused merge wrote %s", out)
			}
		})
	}
	// An interrupted shard has a record but no raw files.
	a, b := writeShard(t, good(0)), writeShard(t, good(1))
	if err := os.Remove(filepath.Join(b, compare.HeadFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := compare.Merge([]string{a, b}, filepath.Join(t.TempDir(), "out"), nil); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("missing raw file: err = %v", err)
	}
	// The output directory may not be a file, nor lie under one (issue 25:
	// exit 1, an internal error, instead of bad input).
	file := filepath.Join(t.TempDir(), "report.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{file, filepath.Join(file, "sub")} {
		if _, err := compare.Merge([]string{a, writeShard(t, good(1))}, out, nil); !errors.Is(err, compare.ErrMerge) || !strings.Contains(err.Error(), file) {
			t.Errorf("output %s: err = %v, want ErrMerge naming %s", out, err, file)
		}
	}
	// The output directory may not be a shard.
	if _, err := compare.Merge([]string{a, b}, a, nil); err == nil || !strings.Contains(err.Error(), "is one of the shards") {
		t.Errorf("output is a shard: err = %v", err)
	}
}

// TestMergeChecksRawFiles: a raw file that is not the one its shard wrote
// (truncated, edited, replaced, or without a recorded size and SHA-256) is
// refused, naming it (issue 25 item 6: a truncated base.txt merged with
// exit 0 and its benchmarks were reported as added).
func TestMergeChecksRawFiles(t *testing.T) {
	raw := func(side, name string) []byte {
		return []byte("# mbopt-compare side=" + side + " commit=" + map[string]string{"base": "aaa", "head": "bbb"}[side] + " trial=1 run=1\n" +
			"goos: linux\ngoarch: amd64\npkg: example.com/m\n" + name + " 1 100 ns/op\n" + name + " 1 101 ns/op\n" + name + " 1 99 ns/op\n")
	}
	rec := func(k int) compare.ShardRecord {
		s := shardSettings()
		return compare.ShardRecord{Schema: compare.SchemaVersion, Kind: compare.ShardBenchmarks, Record: shard.Record{Index: k, Count: 2, Digest: "d1", Total: 2},
			Module: "example.com/m", Base: compare.Revision{Commit: "aaa"}, Head: compare.Revision{Commit: "bbb"},
			Settings: s, Requested: s, Benchmarks: []string{[]string{"example.com/m.BenchmarkA", "example.com/m.BenchmarkB"}[k]}}
	}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string, rec *compare.ShardRecord)
		want   string
	}{
		{"intact", nil, ""},
		{"truncated", func(t *testing.T, dir string, _ *compare.ShardRecord) {
			if err := os.Truncate(filepath.Join(dir, compare.BaseFile), 40); err != nil {
				t.Fatal(err)
			}
		}, "base.txt has 40 bytes"},
		{"edited, same size", func(t *testing.T, dir string, _ *compare.ShardRecord) {
			data := raw("head", "BenchmarkB")
			data[len(data)-8] = '8'
			if err := os.WriteFile(filepath.Join(dir, compare.HeadFile), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "changed after the shard wrote it"},
		{"appended", func(t *testing.T, dir string, _ *compare.ShardRecord) {
			if err := os.WriteFile(filepath.Join(dir, compare.HeadFile), append(raw("head", "BenchmarkB"), "BenchmarkB 1 1 ns/op\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "head.txt has"},
		{"not recorded", func(t *testing.T, dir string, rec *compare.ShardRecord) {
			delete(rec.Files, compare.HeadFile)
		}, "records no size and SHA-256 of head.txt"},
		{"hash not recorded", func(t *testing.T, dir string, rec *compare.ShardRecord) {
			rec.Files[compare.BaseFile] = shard.File{Size: rec.Files[compare.BaseFile].Size}
		}, "records no size and SHA-256 of base.txt"},
		{"removed", func(t *testing.T, dir string, _ *compare.ShardRecord) {
			if err := os.Remove(filepath.Join(dir, compare.BaseFile)); err != nil {
				t.Fatal(err)
			}
		}, "interrupted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := writeShardRaw(t, rec(0), raw("base", "BenchmarkA"), raw("head", "BenchmarkA"))
			second := rec(1)
			second.Files = map[string]shard.File{compare.BaseFile: shard.FileOf(raw("base", "BenchmarkB")), compare.HeadFile: shard.FileOf(raw("head", "BenchmarkB"))}
			b := writeShardRaw(t, second, raw("base", "BenchmarkB"), raw("head", "BenchmarkB"))
			if tc.change != nil {
				tc.change(t, b, &second)
				writeRecord(t, b, second)
			}
			out := filepath.Join(t.TempDir(), "out")
			rep, err := compare.Merge([]string{a, b}, out, nil)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range rep.Results {
					if r.Status != compare.Compared {
						t.Errorf("%s %s: status %s, want compared", r.Name, r.Unit, r.Status)
					}
				}
				return
			}
			if !errors.Is(err, compare.ErrMerge) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), b) {
				t.Fatalf("err = %v, want ErrMerge naming %s and saying %q", err, b, tc.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused merge wrote %s", out)
			}
		})
	}
}

// writeRecord replaces the shard record in dir with rec.
func writeRecord(t *testing.T, dir string, rec compare.ShardRecord) {
	t.Helper()
	data, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, compare.ShardFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// shardSettings are valid settings of a shard record.
func shardSettings() compare.Settings {
	s := compare.DefaultSettings()
	s.Trials, s.Runs, s.Count, s.BenchTime, s.Metric = 3, 2, 3, "10ms", measure.Time
	return s
}

// otherValue returns a value of v's type other than v, for every kind a
// field of compare.Settings has.
func otherValue(t *testing.T, name string, v reflect.Value) reflect.Value {
	t.Helper()
	w := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.Int, reflect.Int64:
		w.SetInt(v.Int() + 1)
	case reflect.Uint64:
		w.SetUint(v.Uint() + 1)
	case reflect.Float64:
		w.SetFloat(v.Float()/2 + 0.001)
		if name == "TargetMDE" {
			w.SetFloat(-1) // none: a target needs a counting metric
		}
	case reflect.String:
		// A valid other value of each string field.
		other := map[string]string{"Metric": "cpu", "Duet": "parallel"}[name]
		if other == "" {
			other = "20ms"
		}
		w.SetString(other)
	case reflect.Bool:
		w.SetBool(!v.Bool())
	default:
		t.Fatalf("Settings.%s has kind %s: teach otherValue a different value of it", name, v.Kind())
	}
	return w
}

// TestMergeComparesEverySetting: shards asked for settings that differ in
// any field do not merge (issue 25 item 5: --count and --runs were not
// compared), and a shard whose settings differ from those it was asked for
// in anything but the schedule a budget fits is refused. Every field of
// compare.Settings is tried, found by reflection: a new field is compared
// unless budgetFitted names it.
func TestMergeComparesEverySetting(t *testing.T) {
	budgetFitted := map[string]bool{"Trials": true, "Runs": true, "Count": true} // fitBudget changes only these
	rec := func(k int, budget time.Duration) compare.ShardRecord {
		s := shardSettings()
		s.Budget = budget
		return compare.ShardRecord{Schema: compare.SchemaVersion, Kind: compare.ShardBenchmarks, Record: shard.Record{Index: k, Count: 2, Digest: "d1", Total: 2},
			Module: "example.com/m", Base: compare.Revision{Commit: "aaa"}, Head: compare.Revision{Commit: "bbb"},
			Settings: s, Requested: s, Benchmarks: []string{[]string{"example.com/m.BenchmarkA", "example.com/m.BenchmarkB"}[k]}}
	}
	merge := func(first, second compare.ShardRecord) error {
		_, err := compare.Merge([]string{writeShard(t, first), writeShard(t, second)}, filepath.Join(t.TempDir(), "out"), nil)
		return err
	}
	if err := merge(rec(0, 0), rec(1, 0)); err != nil {
		t.Fatalf("equal settings: %v", err)
	}
	typ := reflect.TypeFor[compare.Settings]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		t.Run(f.Name, func(t *testing.T) {
			jsonName, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			// Asked for differently: never merged.
			second := rec(1, 0)
			for _, s := range []*compare.Settings{&second.Requested, &second.Settings} {
				v := reflect.ValueOf(s).Elem().Field(i)
				v.Set(otherValue(t, f.Name, v))
			}
			err := merge(rec(0, 0), second)
			if !errors.Is(err, compare.ErrMerge) || !strings.Contains(err.Error(), "different settings ("+jsonName+" ") {
				t.Errorf("requested %s differs: err = %v, want a refusal naming %q", f.Name, err, jsonName)
			}
			// Ran differently from what was asked: only the schedule, only with a budget.
			for _, budget := range []time.Duration{0, time.Hour} {
				second := rec(1, budget)
				v := reflect.ValueOf(&second.Settings).Elem().Field(i)
				v.Set(otherValue(t, f.Name, v))
				err := merge(rec(0, budget), second)
				if budget > 0 && budgetFitted[f.Name] {
					if err != nil {
						t.Errorf("budget fitted %s: err = %v, want merged", f.Name, err)
					}
					continue
				}
				if !errors.Is(err, compare.ErrMerge) || !strings.Contains(err.Error(), jsonName+" ") {
					t.Errorf("ran with another %s (budget %v): err = %v, want a refusal naming %q", f.Name, budget, err, jsonName)
				}
			}
		})
	}
}

func TestShardOptionsRefused(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	for _, tc := range []struct {
		name  string
		o     compare.Options
		field mbopt.Field
	}{
		{"both", compare.Options{Shard: shard.Spec{Index: 0, Count: 2}, TrialShard: shard.Spec{Index: 0, Count: 2}}, "TrialShard"},
		{"more machines than trials", compare.Options{TrialShard: shard.Spec{Index: 0, Count: 5}}, "TrialShard"},
		{"until-stable with trial shards", compare.Options{TrialShard: shard.Spec{Index: 0, Count: 2}, Settings: compare.Settings{UntilStable: 0.1}}, "TrialShard"},
		{"index out of range", compare.Options{Shard: shard.Spec{Index: 2, Count: 2}}, "Shard"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Dir = dir
			_, err := compare.Run(context.Background(), tc.o)
			var ie *mbopt.Error
			if !errors.As(err, &ie) || ie.Field != tc.field {
				t.Errorf("err = %v, want an mbopt.Error on %s", err, tc.field)
			}
		})
	}
}

// TestNonFiniteSettingsRefused: a NaN or infinite float setting is an
// mbopt.Error naming the field, before anything runs (issue 25 item 7:
// Threshold NaN passed the range check and turned the gate off).
func TestNonFiniteSettingsRefused(t *testing.T) {
	for _, tc := range []struct {
		field mbopt.Field
		set   func(s *compare.Settings, v float64)
	}{
		{"Settings.Threshold", func(s *compare.Settings, v float64) { s.Threshold = v }},
		{"Settings.Confidence", func(s *compare.Settings, v float64) { s.Confidence = v }},
		{"Settings.UntilStable", func(s *compare.Settings, v float64) { s.UntilStable = v }},
		{"Settings.FDR", func(s *compare.Settings, v float64) { s.FDR = v }},
	} {
		for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			t.Run(fmt.Sprintf("%s=%v", tc.field, v), func(t *testing.T) {
				s := shardSettings()
				tc.set(&s, v)
				_, err := compare.Run(context.Background(), compare.Options{Dir: t.TempDir(), Settings: s})
				var ie *mbopt.Error
				if !errors.As(err, &ie) || !slices.Contains(append(ie.Fields(), ie.Field), tc.field) {
					t.Errorf("err = %v, want an mbopt.Error on %s", err, tc.field)
				}
			})
		}
	}
}

// TestOutOfRangeSettingsRefused: a setting outside its range is an
// mbopt.Error naming the field, whose message gives the range and the unit
// (issue 31 item 9: an AppImpactThreshold of 1 or more made the gate
// app-impact unfailable, since no change moves the application by 100%).
func TestOutOfRangeSettingsRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		field mbopt.Field
		set   func(s *compare.Settings)
		want  string
	}{
		{"app impact 1", "Settings.AppImpactThreshold", func(s *compare.Settings) { s.AppImpactThreshold = 1 }, "(0, 1)"},
		{"app impact 2", "Settings.AppImpactThreshold", func(s *compare.Settings) { s.AppImpactThreshold = 2 }, "application's CPU time"},
		{"app impact huge", "Settings.AppImpactThreshold", func(s *compare.Settings) { s.AppImpactThreshold = 1e308 }, "0.001 for 0.1%"},
		{"app impact negative", "Settings.AppImpactThreshold", func(s *compare.Settings) { s.AppImpactThreshold = -0.1 }, "(0, 1)"},
		{"a parallel duet with cpu", "", func(s *compare.Settings) { s.Duet, s.Metric = compare.DuetParallel, measure.CPU }, "Config.Settings.Duet parallel applies to Config.Settings.Metric time only"},
		{"a parallel duet with instructions", "", func(s *compare.Settings) { s.Duet, s.Metric = compare.DuetParallel, measure.Instructions }, "Config.Settings.Duet parallel applies"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := shardSettings()
			tc.set(&s)
			_, err := compare.Run(context.Background(), compare.Options{Dir: t.TempDir(), Settings: s})
			var ie *mbopt.Error
			if !errors.As(err, &ie) || !slices.Contains(append(ie.Fields(), ie.Field), tc.field) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want an mbopt.Error on %q that says %q", err, tc.field, tc.want)
			}
		})
	}
}
