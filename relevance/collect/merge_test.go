package collect_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/shard"
)

// whole returns a collection of n benchmarks with profiles (one failed, with
// a log), written by nobody: the input the synthetic shards split.
func whole(n int) *manifest.Manifest { return wholeSized(n, 0) }

// wholeSized is whole with profiles of size bytes (0: a short text).
func wholeSized(n, size int) *manifest.Manifest {
	m := &manifest.Manifest{Version: manifest.SchemaVersion, Module: "example.com/m", GoVersion: "go1.26.0",
		GOOS: "linux", GOARCH: "amd64", VCSRevision: "abc123", BenchTime: "1s", BuildFlags: []string{"-tags=x"}}
	for i := range n {
		name := fmt.Sprintf("BenchmarkB%03d", i)
		e := manifest.Entry{ID: "example.com/m/p." + name, Package: "example.com/m/p", Dir: "p", Name: name,
			Status: manifest.StatusOK, WallSeconds: float64(1 + i%7), BenchTime: "1s", TestBinary: "sha256:t"}
		if i == 3 {
			e.Status, e.Error, e.Log = manifest.StatusFailed, "boom", "logs/p.log"
		} else {
			e.Profile = manifest.ProfileName(m.Module, e.Package, e.Name)
			sum := sha256.Sum256(profileBytes(e.ID, size))
			e.ProfileSHA256 = hex.EncodeToString(sum[:])
		}
		m.Benchmarks = append(m.Benchmarks, e)
	}
	return m
}

// profileBytes returns the synthetic profile of benchmark id: a short text,
// or size bytes.
func profileBytes(id string, size int) []byte {
	b := []byte("profile of " + id)
	if size > 0 {
		b = bytes.Repeat(b, size/len(b)+1)[:size]
	}
	return b
}

// writeDir writes m and the files its entries name into dir.
func writeDir(t testing.TB, dir string, m *manifest.Manifest) { writeDirSized(t, dir, m, 0) }

// writeDirSized is writeDir with profiles of size bytes, as wholeSized.
func writeDirSized(t testing.TB, dir string, m *manifest.Manifest, size int) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "logs"), 0o755))
	for _, e := range m.Benchmarks {
		if e.Profile != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, e.Profile), profileBytes(e.ID, size), 0o644))
		}
		if e.Log != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, e.Log), []byte("log"), 0o644))
		}
	}
	require.NoError(t, m.Write(dir))
}

// split returns w's n shard manifests, partitioned by its costs as
// collect.Collect would.
func split(t testing.TB, w *manifest.Manifest, n int) []*manifest.Manifest {
	t.Helper()
	var ids []string
	for _, e := range w.Benchmarks {
		ids = append(ids, e.ID)
	}
	items, byCount := shard.Items(ids, w.Costs())
	a, err := shard.Assign(items, n)
	require.NoError(t, err)
	out := make([]*manifest.Manifest, n)
	for k := range out {
		m := *w
		m.Benchmarks = nil
		m.Shard = &manifest.Shard{Record: shard.NewRecord(shard.Spec{Index: k, Count: n}, items), ByCount: byCount, Complete: true}
		out[k] = &m
	}
	for i, e := range w.Benchmarks {
		m := out[a[i]]
		m.Benchmarks = append(m.Benchmarks, e)
		m.Shard.Benchmarks++
	}
	return out
}

// writeShards writes the shards into root/shard-K and returns the
// directories.
func writeShards(t testing.TB, root string, shards []*manifest.Manifest) []string {
	t.Helper()
	var dirs []string
	for k, m := range shards {
		d := filepath.Join(root, fmt.Sprintf("shard-%d", k))
		writeDir(t, d, m)
		dirs = append(dirs, d)
	}
	return dirs
}

func TestMerge(t *testing.T) {
	root := t.TempDir()
	w := whole(20)
	dirs := writeShards(t, root, split(t, w, 3))
	out := filepath.Join(root, "merged")
	m, err := collect.Merge(dirs, out)
	require.NoError(t, err)
	want := *w
	want.Sort()
	assert.Equal(t, &want, m)
	loaded, err := manifest.Load(out)
	require.NoError(t, err)
	assert.Equal(t, m, loaded)
	for _, e := range w.Benchmarks {
		if e.Profile != "" {
			data, err := os.ReadFile(filepath.Join(out, e.Profile))
			require.NoError(t, err)
			assert.Equal(t, profileBytes(e.ID, 0), data)
		}
	}
	assert.FileExists(t, filepath.Join(out, "logs/p.log"))
	first := snapshot(t, out)

	// Idempotent: merging again into the same directory, and merging the
	// merged directory alone, give the same bytes.
	_, err = collect.Merge(dirs, out)
	require.NoError(t, err)
	assert.Equal(t, first, snapshot(t, out))
	again := filepath.Join(root, "again")
	_, err = collect.Merge([]string{out}, again)
	require.NoError(t, err)
	assert.Equal(t, first, snapshot(t, again))
	_, err = collect.Merge([]string{out}, out)
	require.NoError(t, err)
	assert.Equal(t, first, snapshot(t, out), "merging a directory onto itself")

	// One shard of one.
	one := writeShards(t, filepath.Join(root, "one"), split(t, w, 1))
	_, err = collect.Merge(one, filepath.Join(root, "one-merged"))
	require.NoError(t, err)
	assert.Equal(t, first, snapshot(t, filepath.Join(root, "one-merged")))

	// More shards than benchmarks: the empty shards merge too.
	many := writeShards(t, filepath.Join(root, "many"), split(t, whole(2), 5))
	m, err = collect.Merge(many, filepath.Join(root, "many-merged"))
	require.NoError(t, err)
	assert.Len(t, m.Benchmarks, 2)
}

// snapshot returns every file under dir with its contents.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[rel] = string(data)
		return err
	}))
	return files
}

// TestMergeRefuses: every kind of inconsistent input is refused with an
// error naming the directories, and the output directory is left as it
// was.
func TestMergeRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		// edit changes the shards before they are written; dirs edits the
		// list of directories given to Merge after.
		edit func(ms []*manifest.Manifest)
		dirs func(t *testing.T, root string, dirs []string) []string
		err  string
	}{
		{name: "different module", edit: func(ms []*manifest.Manifest) { ms[1].Module = "example.com/other" },
			err: "shard-0 and {root}/shard-1 differ in module (example.com/m; example.com/other)"},
		{name: "different revision", edit: func(ms []*manifest.Manifest) { ms[2].VCSRevision = "def456" },
			err: "shard-0 and {root}/shard-2 differ in VCS revision (abc123; def456)"},
		{name: "uncommitted changes", edit: func(ms []*manifest.Manifest) { ms[2].VCSModified = true },
			err: "differ in VCS revision (abc123; abc123 with uncommitted changes)"},
		{name: "different Go version", edit: func(ms []*manifest.Manifest) { ms[1].GoVersion = "go1.26.1" },
			err: "differ in Go version (go1.26.0; go1.26.1)"},
		{name: "different platform", edit: func(ms []*manifest.Manifest) { ms[1].GOARCH = "arm64" },
			err: "differ in GOOS/GOARCH (linux/amd64; linux/arm64)"},
		{name: "different build flags", edit: func(ms []*manifest.Manifest) { ms[1].BuildFlags = nil },
			err: "differ in build flags (-tags=x; none)"},
		{name: "different benchtime", edit: func(ms []*manifest.Manifest) { ms[1].BenchTime = "10s" },
			err: "differ in benchtime (1s; 10s)"},
		{name: "mixed N", edit: func(ms []*manifest.Manifest) { ms[2].Shard.Count = 4 },
			err: "shard-0 is shard 0/3 but {root}/shard-2 is shard 2/4"},
		{name: "different partition inputs", edit: func(ms []*manifest.Manifest) { ms[1].Shard.Digest = "sha256:0000000000000000" },
			err: "shard-0 and {root}/shard-1 partitioned different benchmarks or costs"},
		{name: "interrupted shard", edit: func(ms []*manifest.Manifest) { ms[1].Shard.Complete = false },
			err: "shard-1: shard 1/3 did not finish (its run was interrupted)"},
		{name: "share not all there", edit: func(ms []*manifest.Manifest) { ms[0].Benchmarks = ms[0].Benchmarks[1:] },
			err: "shard-0: shard 0/3 lists 6 benchmarks, but its share has 7"},
		{name: "overlapping shard index", edit: func(ms []*manifest.Manifest) { ms[2].Shard.Index = 1 },
			err: "shard-1 and {root}/shard-2 are both shard 1/3 (overlapping shards)"},
		{name: "benchmark in two shards", edit: func(ms []*manifest.Manifest) {
			ms[1].Benchmarks[0] = ms[0].Benchmarks[0]
		}, err: "benchmark example.com/m/p.BenchmarkB001 is in both {root}/shard-0 and {root}/shard-1 (overlapping shards)"},
		{name: "missing shard", dirs: func(_ *testing.T, _ string, d []string) []string { return d[:2] },
			err: "missing 1 shard of 3: shard 2/3 (given: {root}/shard-0, {root}/shard-1)"},
		{name: "same directory twice", dirs: func(_ *testing.T, _ string, d []string) []string { return append(d, d[0]) },
			err: "shard-0 and {root}/shard-0 are the same directory"},
		{name: "whole collection among shards", dirs: func(t *testing.T, root string, d []string) []string {
			w := filepath.Join(root, "whole")
			writeDir(t, w, whole(20))
			return append(d, w)
		}, err: "{root}/whole is a whole collection, not a shard"},
		{name: "no manifest", dirs: func(t *testing.T, root string, d []string) []string {
			e := filepath.Join(root, "empty")
			require.NoError(t, os.Mkdir(e, 0o755))
			return append(d, e)
		}, err: "{root}/empty has no manifest.json"},
		{name: "profile changed", dirs: func(t *testing.T, root string, d []string) []string {
			m, err := manifest.Load(d[1])
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(d[1], m.Benchmarks[0].Profile), []byte("edited"), 0o644))
			return d
		}, err: "changed after the shard wrote it"},
		{name: "profile missing", dirs: func(t *testing.T, root string, d []string) []string {
			m, err := manifest.Load(d[2])
			require.NoError(t, err)
			require.NoError(t, os.Remove(filepath.Join(d[2], m.Benchmarks[0].Profile)))
			return d
		}, err: "no such file or directory; the manifest names it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			shards := split(t, whole(20), 3)
			if tc.edit != nil {
				tc.edit(shards)
			}
			dirs := writeShards(t, root, shards)
			if tc.dirs != nil {
				dirs = tc.dirs(t, root, dirs)
			}
			out := filepath.Join(root, "out")
			writeDir(t, out, whole(1)) // an earlier output, which must survive
			before := snapshot(t, out)
			_, err := collect.Merge(dirs, out)
			require.ErrorIs(t, err, collect.ErrMerge)
			assert.ErrorContains(t, err, replaceRoot(tc.err, root))
			assert.Equal(t, before, snapshot(t, out), "the output directory changed")
			entries, _ := os.ReadDir(root)
			for _, e := range entries {
				assert.NotContains(t, e.Name(), ".tmp", "temporary directory left behind")
			}
		})
	}
}

func replaceRoot(s, root string) string {
	return strings.ReplaceAll(s, "{root}", root)
}

// TestMergeOutput: merge replaces only a directory it may replace.
func TestMergeOutput(t *testing.T) {
	root := t.TempDir()
	dirs := writeShards(t, root, split(t, whole(5), 2))
	foreign := filepath.Join(root, "foreign")
	require.NoError(t, os.MkdirAll(foreign, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644))
	_, err := collect.Merge(dirs, foreign)
	require.ErrorIs(t, err, collect.ErrMerge)
	assert.ErrorContains(t, err, "is not empty and holds no manifest.json")
	assert.FileExists(t, filepath.Join(foreign, "notes.txt"))

	_, err = collect.Merge(dirs, root)
	require.ErrorIs(t, err, collect.ErrMerge)
	assert.ErrorContains(t, err, "is inside the output directory")

	file := filepath.Join(root, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = collect.Merge(dirs, file)
	assert.ErrorContains(t, err, "is not a directory")

	empty := filepath.Join(root, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	_, err = collect.Merge(dirs, empty)
	require.NoError(t, err)

	_, err = collect.Merge(nil, empty)
	assert.ErrorContains(t, err, "no directories to merge")
}

// TestMergeCover merges the shards of a collection of function sets
// (Source cover): the sets are copied and checked like profiles, the
// merged manifest keeps the source, and shards of different sources are
// not merged.
func TestMergeCover(t *testing.T) {
	root := t.TempDir()
	w := whole(6)
	w.Source = manifest.SourceCover
	for i := range w.Benchmarks {
		e := &w.Benchmarks[i]
		if e.Profile == "" {
			continue
		}
		e.Profile, e.ProfileSHA256 = "", ""
		e.Functions = manifest.FunctionsName(w.Module, e.Package, e.Name)
		sum := sha256.Sum256(profileBytes(e.ID, 0))
		e.FunctionsSHA256 = hex.EncodeToString(sum[:])
	}
	shards := split(t, w, 2)
	dirs := writeShards(t, root, shards)
	for k, m := range shards {
		for _, e := range m.Benchmarks {
			if e.Functions != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dirs[k], e.Functions), profileBytes(e.ID, 0), 0o644))
			}
		}
	}
	out := filepath.Join(root, "merged")
	m, err := collect.Merge(dirs, out)
	require.NoError(t, err)
	assert.Equal(t, manifest.SourceCover, m.Source)
	assert.Equal(t, manifest.SchemaVersionCover, m.Version)
	for _, e := range m.Benchmarks {
		if e.Functions != "" {
			data, err := os.ReadFile(filepath.Join(out, e.Functions))
			require.NoError(t, err)
			assert.Equal(t, profileBytes(e.ID, 0), data)
		}
	}

	// A function set changed after collection is refused.
	var changed string
	for _, e := range shards[0].Benchmarks {
		if e.Functions != "" {
			changed = filepath.Join(dirs[0], e.Functions)
			break
		}
	}
	require.NoError(t, os.WriteFile(changed, []byte("edited"), 0o644))
	_, err = collect.Merge(dirs, filepath.Join(root, "edited"))
	require.ErrorIs(t, err, collect.ErrMerge)

	// A shard of profiles and a shard of function sets are not merged.
	prof := split(t, whole(6), 2)
	pdirs := writeShards(t, filepath.Join(root, "prof"), prof)
	_, err = collect.Merge([]string{dirs[1], pdirs[0]}, filepath.Join(root, "mixed"))
	require.ErrorIs(t, err, collect.ErrMerge)
	assert.Contains(t, err.Error(), "differ in source")
}
