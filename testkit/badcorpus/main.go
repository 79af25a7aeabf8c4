// Command badcorpus writes the input files of the bad-input corpus in
// testdata/bad (see its README): the shared good profiles and every bad
// profile a case needs. It is deterministic, so a rerun rewrites the
// committed files byte for byte.
//
// Usage, from the repository root: go run ./testkit/badcorpus
//
// Files that are too large to commit or cannot be committed (a gzip bomb, a
// 1 GiB sparse file, named pipes) are made by the test at run time (the
// "setup" lines of a case).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/relevance/shard"
	"github.com/mbopt/mbopt/testkit/proftest"
)

const root = "testdata/bad"

func main() {
	if _, err := os.Stat(filepath.Join(root, "README.md")); err != nil {
		log.Fatal("run from the repository root: go run ./testkit/badcorpus")
	}
	app, one, two := proftest.Figure62()

	// Good inputs every case may use.
	writeProfile("shared/app.pprof", app)
	writeProfile("shared/plain/one.pprof", one)
	writeProfile("shared/plain/two.pprof", two)
	collection("shared/collection", map[string]*profile.Profile{"one.pprof": one, "two.pprof": two}, nil)

	// Application profiles that parse but cannot be analysed.
	writeProfile("inputs/stripped.pprof", unsymbolized(false))
	writeProfile("inputs/stripped-mapped.pprof", unsymbolized(true))
	writeProfile("inputs/stackless.pprof", noLocations())
	writeProfile("inputs/values-below-0.pprof", scaled(app, -1))
	writeProfile("inputs/values-all-0.pprof", scaled(app, 0))
	writeProfile("inputs/anonymous-frames.pprof", unnamed())
	// A benchmark that shares only an external function with the
	// application: the minimal suite over project nodes is empty.
	collection("inputs/external-only-collection", map[string]*profile.Profile{"ext.pprof": proftest.Profile(proftest.Stack{
		Frames: []string{"testing.(*B).runN", proftest.Figure62Name(11)}, Nanos: 10_000_000})}, nil)
	// Hand-named ids: suite cannot tell their package.
	writeProfile("inputs/hand-named/storage__BenchmarkOne.pprof", one)

	// Collections whose manifest is wrong.
	collection("inputs/manifest-escape", map[string]*profile.Profile{"one.pprof": one, "two.pprof": two},
		func(m *manifest.Manifest) { m.Benchmarks[1].Profile = "../../../shared/plain/two.pprof" })
	collection("inputs/manifest-ok-no-profile", map[string]*profile.Profile{"one.pprof": one, "two.pprof": two},
		func(m *manifest.Manifest) { m.Benchmarks[1].Profile = "" })
	writeFile("inputs/manifest-corrupt/manifest.json", []byte(`{"version": 1, "module": "example.com/fig", "benchmarks": [`))
	writeFile("inputs/manifest-version/manifest.json", []byte(`{"version": 99, "module": "example.com/fig", "benchmarks": []}`+"\n"))
	// A collection of function sets (mbopt profile --source cover), given
	// together with a directory of profiles.
	writeFile("inputs/cover-collection/manifest.json", []byte(`{
  "version": 2,
  "module": "example.com/fig",
  "benchtime": "500ms",
  "source": "cover",
  "benchmarks": [
    {"id": "example.com/fig/app.BenchmarkOne", "package": "example.com/fig/app", "dir": "app", "name": "BenchmarkOne", "status": "ok", "functions": "one.funcs.json", "wall_seconds": 0.6}
  ]
}
`))
	writeFile("inputs/cover-collection/one.funcs.json", []byte(`{"version": 1, "packages": ["example.com/fig"], "functions": [{"name": "example.com/fig.a", "file": "example.com/fig/fig.go", "line": 1}]}`+"\n"))

	// Benchmark directories with one good and one bad profile: the bad
	// one is skipped with a warning and the run succeeds.
	for _, bad := range []string{"empty-file", "heap", "no-samples", "not-a-profile", "truncated"} {
		data, err := os.ReadFile(filepath.Join("testdata/profiles/bad", bad+".pprof"))
		if err != nil {
			log.Fatal(err)
		}
		writeProfile("inputs/skip-"+bad+"/one.pprof", one)
		writeFile("inputs/skip-"+bad+"/"+bad+".pprof", data)
	}
	for _, bad := range []string{"unsymbolized", "negative", "no-locations"} {
		writeProfile("inputs/skip-"+bad+"/one.pprof", one)
	}
	writeProfile("inputs/skip-unsymbolized/stripped.pprof", unsymbolized(false))
	writeProfile("inputs/skip-negative/values-below-0.pprof", scaled(one, -1))
	writeProfile("inputs/skip-no-locations/stackless.pprof", noLocations())
	// Nothing usable at all.
	writeFile("inputs/all-bad/a.pprof", nil)
	writeFile("inputs/all-bad/b.pprof", []byte("this is not a pprof profile\n"))
	writeFile("inputs/no-profiles/README", []byte("a directory without *.pprof files\n"))
	// Two directories that both hold an id "one".
	writeProfile("inputs/dup-a/one.pprof", one)
	writeProfile("inputs/dup-b/one.pprof", two)
	// A costs file that is not JSON, CSV or a manifest.
	writeFile("inputs/bad-costs.json", []byte("{\"example.com/fig/app.BenchmarkOne\": \"fast\"}\n"))
	// The two benchmark shards of one comparison, shard 0 run with the
	// analysis flags and without, shard 1 without: compare merge
	// --fail-on app-impact has no estimates to judge.
	compareShard("inputs/shards/app-0", 0, true)
	compareShard("inputs/shards/plain-0", 0, false)
	compareShard("inputs/shards/plain-1", 1, false)
}

// compareShard writes the output directory of benchmark shard k of 2 of a
// comparison of example.com/fig (BenchmarkOne in shard 0, BenchmarkTwo in
// shard 1, neither changed), as mbopt compare --shard k/2 writes it, run
// with the analysis flags when app (compare.ShardRecord.Application).
func compareShard(dir string, k int, app bool) {
	name := []string{"BenchmarkOne", "BenchmarkTwo"}[k]
	pkg := proftest.Figure62Module + "/app"
	commits := map[string]string{"base": strings.Repeat("a", 40), "head": strings.Repeat("b", 40)}
	raw := func(side string) []byte {
		var b strings.Builder
		fmt.Fprintf(&b, "goos: linux\ngoarch: amd64\npkg: %s\n", pkg)
		for trial := 1; trial <= 3; trial++ {
			fmt.Fprintf(&b, "# mbopt-compare side=%s commit=%s trial=%d run=1\n", side, commits[side], trial)
			fmt.Fprintf(&b, "%s 1 100 ns/op\n", name)
		}
		return []byte(b.String())
	}
	s := compare.DefaultSettings()
	s.Trials, s.Runs, s.Count, s.BenchTime, s.Metric = 3, 1, 1, "10ms", measure.Time
	base, head := raw("base"), raw("head")
	rec := compare.ShardRecord{Schema: compare.SchemaVersion, Kind: compare.ShardBenchmarks,
		Record: shard.Record{Index: k, Count: 2, Digest: "corpus", Total: 2}, Module: proftest.Figure62Module,
		Base: compare.Revision{Commit: commits["base"]}, Head: compare.Revision{Commit: commits["head"]}, Settings: s, Requested: s,
		Benchmarks: []string{benchname.ID(pkg, name)}, Trials: []int{1, 2, 3}, Application: app,
		Files: map[string]shard.File{compare.BaseFile: shard.FileOf(base), compare.HeadFile: shard.FileOf(head)}}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	writeFile(filepath.Join(dir, compare.ShardFile), append(data, '\n'))
	writeFile(filepath.Join(dir, compare.BaseFile), base)
	writeFile(filepath.Join(dir, compare.HeadFile), head)
}

func writeFile(name string, data []byte) {
	path := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		log.Fatal(err)
	}
}

func writeProfile(name string, p *profile.Profile) {
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		log.Fatalf("%s: %v", name, err)
	}
	writeFile(name, b.Bytes())
}

// collection writes profiles and a manifest naming them as benchmarks
// example.com/fig/app.BenchmarkOne, .BenchmarkTwo, ... in file name order;
// edit changes the manifest before it is written.
func collection(dir string, profiles map[string]*profile.Profile, edit func(*manifest.Manifest)) {
	names := []string{"ext.pprof", "one.pprof", "two.pprof"}
	bench := map[string]string{"ext.pprof": "BenchmarkExt", "one.pprof": "BenchmarkOne", "two.pprof": "BenchmarkTwo"}
	m := &manifest.Manifest{Version: manifest.SchemaVersion, Module: proftest.Figure62Module, BenchTime: "1s"}
	for _, n := range names {
		p, ok := profiles[n]
		if !ok {
			continue
		}
		writeProfile(filepath.Join(dir, n), p)
		pkg := proftest.Figure62Module + "/app"
		m.Benchmarks = append(m.Benchmarks, manifest.Entry{ID: benchname.ID(pkg, bench[n]), Package: pkg, Dir: "app",
			Name: bench[n], Status: manifest.StatusOK, Profile: n, WallSeconds: 1})
	}
	if edit != nil {
		edit(m)
	}
	// Written by hand, not with m.Write, which would refuse what the
	// corpus needs to be wrong.
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	writeFile(filepath.Join(dir, manifest.FileName), append(data, '\n'))
}

// cpuProfile returns an empty CPU profile in the shape Go writes.
func cpuProfile() *profile.Profile {
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000, DurationNanos: 1e9,
	}
}

// unsymbolized returns a profile whose locations hold addresses only, as a
// profile of a stripped binary or one written without symbolization; with
// mapping, the locations lie in a mapping of a binary that has no symbols.
func unsymbolized(mapping bool) *profile.Profile {
	p := cpuProfile()
	var m *profile.Mapping
	if mapping {
		m = &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x800000, File: "/usr/local/bin/app", BuildID: "0123456789abcdef"}
		p.Mapping = []*profile.Mapping{m}
	}
	for i := range 4 {
		p.Location = append(p.Location, &profile.Location{ID: uint64(i + 1), Mapping: m, Address: uint64(0x401000 + 0x40*i)})
	}
	for i := range 3 {
		p.Sample = append(p.Sample, &profile.Sample{
			Location: []*profile.Location{p.Location[i+1], p.Location[0]},
			Value:    []int64{int64(i + 1), int64(i+1) * 10_000_000},
		})
	}
	return p
}

// noLocations returns a CPU profile whose samples have no stack.
func noLocations() *profile.Profile {
	p := cpuProfile()
	for i := range 3 {
		p.Sample = append(p.Sample, &profile.Sample{Value: []int64{int64(i + 1), int64(i+1) * 10_000_000}})
	}
	return p
}

// scaled returns a copy of p with every sample value multiplied by k: -1
// gives negative values, 0 all-zero ones.
func scaled(p *profile.Profile, k int64) *profile.Profile {
	q := p.Copy()
	for _, s := range q.Sample {
		for i := range s.Value {
			s.Value[i] *= k
		}
	}
	return q
}

// unnamed returns a CPU profile whose frames are symbolized with functions
// that have no name (as some JIT or foreign frames are).
func unnamed() *profile.Profile {
	p := cpuProfile()
	for i := range 3 {
		f := &profile.Function{ID: uint64(i + 1)}
		p.Function = append(p.Function, f)
		p.Location = append(p.Location, &profile.Location{ID: uint64(i + 1), Address: uint64(0x1000 + 0x10*i),
			Line: []profile.Line{{Function: f, Line: int64(i + 1)}}})
	}
	for i := range 2 {
		p.Sample = append(p.Sample, &profile.Sample{
			Location: []*profile.Location{p.Location[i+1], p.Location[0]},
			Value:    []int64{1, 10_000_000},
		})
	}
	return p
}

func init() { log.SetFlags(0); log.SetPrefix("gen: ") }
