package proftest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// ThinModule is the module path of the thin-profile fixture ([Thin]).
const ThinModule = "example.com/kv"

// The thin-profile fixture's functions.
const (
	thinPkg      = ThinModule + "/kv"
	ThinUpdate   = thinPkg + ".(*DB).Update"
	ThinCommit   = thinPkg + ".(*Tx).Commit"
	ThinWrite    = thinPkg + ".(*Tx).write"
	ThinEncode   = thinPkg + ".(*page).encode"
	ThinMeta     = thinPkg + ".(*DB).writeMeta"
	ThinChecksum = thinPkg + ".(*meta).checksum"
	ThinView     = thinPkg + ".(*DB).View"
	ThinSeek     = thinPkg + ".(*Cursor).Seek"
	ThinSearch   = thinPkg + ".(*page).search"
	ThinStats    = thinPkg + ".(*DB).Stats"
	ThinFreeList = thinPkg + ".(*freelist).count"
)

// Thin returns the thin-profile fixture: an embedded key-value store whose
// commits end in fsync, its application profile, the sampled profiles of
// its two benchmarks by id, and the functions each benchmark ran as exact
// coverage (a `profile --source cover` run) records them.
//
// The application (10 s of CPU, 1,000 samples) commits, reads and asks
// for statistics: Update → Commit → write → encode, Commit → writeMeta →
// checksum and → fsync; View → Seek → search; Stats → freelist.count.
//
// BenchmarkPut is fsync-bound: 1.2 s of wall time, 22 CPU samples (0.22 s),
// 15 of them in fsync and 7 in encode. The checksum every commit computes
// takes too little time for 22 samples to catch, so the profile misses it;
// its exact coverage has it. BenchmarkSeek is CPU-bound (300 samples) and
// covers the read path. Nothing benchmarks Stats.
func Thin() (app *profile.Profile, benches map[string]*profile.Profile, exact map[string][]string) {
	const ms = 1_000_000
	stack := func(n int64, frames ...string) Stack {
		return Stack{Frames: append([]string{"main.main"}, frames...), Nanos: n * 10 * ms}
	}
	app = Profile(
		stack(300, ThinUpdate, ThinCommit, ThinWrite, ThinEncode),
		stack(40, ThinUpdate, ThinCommit, ThinMeta, ThinChecksum),
		stack(60, ThinUpdate, ThinCommit, ThinMeta, "os.(*File).Sync", "syscall.fsync"),
		stack(550, ThinView, ThinSeek, ThinSearch),
		stack(50, ThinStats, ThinFreeList),
	)
	bench := func(name string, frames ...string) []string {
		return append([]string{"testing.(*B).runN", ThinModule + "/kv_test." + name}, frames...)
	}
	put := Profile(
		Stack{Frames: bench("BenchmarkPut", ThinUpdate, ThinCommit, ThinMeta, "os.(*File).Sync", "syscall.fsync"), Nanos: 150 * ms},
		Stack{Frames: bench("BenchmarkPut", ThinUpdate, ThinCommit, ThinWrite, ThinEncode), Nanos: 70 * ms},
	)
	put.DurationNanos = 1_200 * ms
	seek := Profile(Stack{Frames: bench("BenchmarkSeek", ThinView, ThinSeek, ThinSearch), Nanos: 3_000 * ms})
	seek.DurationNanos = 3_100 * ms
	benches = map[string]*profile.Profile{"BenchmarkPut": put, "BenchmarkSeek": seek}
	exact = map[string][]string{
		"BenchmarkPut":  {ThinUpdate, ThinCommit, ThinWrite, ThinEncode, ThinMeta, ThinChecksum},
		"BenchmarkSeek": {ThinView, ThinSeek, ThinSearch},
	}
	return app, benches, exact
}

// WriteThin writes the [Thin] fixture under dir: the application profile
// (app.pprof), the sampled benchmark profiles (profiles/ID.pprof) and the
// exact coverage of a `profile --source cover` run (cover/: a manifest and
// one function set per benchmark). It returns the three paths.
func WriteThin(tb testing.TB, dir string) (app, profiles, cover string) {
	tb.Helper()
	a, benches, exact := Thin()
	app = filepath.Join(dir, "app.pprof")
	WriteFile(tb, app, a)
	profiles = filepath.Join(dir, "profiles")
	cover = filepath.Join(dir, "cover")
	for _, d := range []string{profiles, cover} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	m := &manifest.Manifest{Module: ThinModule, BenchTime: "500ms", Source: manifest.SourceCover}
	ids := make([]string, 0, len(benches))
	for id := range benches {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		WriteFile(tb, filepath.Join(profiles, id+".pprof"), benches[id])
		set := &covdata.Set{Packages: []string{thinPkg}}
		names := slices.Clone(exact[id])
		slices.Sort(names)
		for _, n := range names {
			set.Funcs = append(set.Funcs, covdata.Func{Name: n})
		}
		name := id + ".funcs.json"
		f, err := os.Create(filepath.Join(cover, name))
		if err != nil {
			tb.Fatal(err)
		}
		if err := set.Write(f); err != nil {
			tb.Fatal(err)
		}
		if err := f.Close(); err != nil {
			tb.Fatal(err)
		}
		m.Benchmarks = append(m.Benchmarks, manifest.Entry{ID: thinPkg + "." + id, Package: thinPkg, Name: id, Status: manifest.StatusOK, Functions: name, BenchTime: "500ms"})
	}
	if err := m.Write(cover); err != nil {
		tb.Fatal(err)
	}
	return app, profiles, cover
}
