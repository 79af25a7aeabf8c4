package collect

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/manifest"
)

// ErrMerge matches (with errors.Is) every error of [Merge] caused by its
// inputs: a directory without a readable manifest, shards that do not make
// up one whole collection, a profile that is missing or changed, an output
// directory that may not be replaced.
var ErrMerge = errors.New("cannot merge")

// mergeErrorf returns an error wrapping ErrMerge.
func mergeErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMerge, fmt.Sprintf(format, args...))
}

// Merge combines the output directories dirs of a sharded collection (see
// Sharding in the package documentation) into the output directory out: a
// manifest with every shard's entries and no shard record, next to a copy
// of every profile, function set and log the entries name. The result is what one
// unsharded [Collect] would have written, apart from the discovery cache,
// which Merge does not copy.
//
// dirs must be either every shard of one partition, once each, or a
// single whole collection (merging a merged directory copies it
// unchanged, so merging is idempotent). Merge refuses, with an error
// matching [ErrMerge] that names the directories concerned: a directory
// without a readable manifest or given twice; manifests that differ in
// module, VCS revision (or uncommitted changes), Go version, GOOS/GOARCH,
// build flags, benchtime or source (profiles or function sets); a whole
// collection among shards; shards of different counts or of different
// partition inputs; an interrupted shard; a shard index given twice
// (overlap) or absent (missing); a benchmark in two shards; a profile or
// function set missing or whose SHA-256 differs from its entry's.
//
// out is replaced as a whole, atomically ([atomicfile.ReplaceDir]): on any
// error it is left as it was. It may be one of dirs, but it must not
// contain one, and when it exists it must be empty or an output directory
// (holding a manifest.json), since its old content is deleted. Merge reads
// every manifest and copies every file once: its cost grows linearly with
// the number of shards and of files.
func Merge(dirs []string, out string) (*manifest.Manifest, error) {
	if len(dirs) == 0 {
		return nil, mergeErrorf("no directories to merge")
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return nil, mergeErrorf("output directory %s: %v", out, err)
	}
	inputs := make([]mergeInput, len(dirs))
	byPath := map[string]string{}
	for i, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, mergeErrorf("%s: %v", d, err)
		}
		if prev, dup := byPath[abs]; dup {
			return nil, mergeErrorf("%s and %s are the same directory; give each shard once", prev, d)
		}
		byPath[abs] = d
		if rel, err := filepath.Rel(absOut, abs); err == nil && rel != "." && filepath.IsLocal(rel) {
			return nil, mergeErrorf("%s is inside the output directory %s, which merge replaces; write the merged collection elsewhere", d, out)
		}
		m, err := manifest.Load(d)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, mergeErrorf("%s has no %s; merge the output directories of 'mbopt profile --shard'", d, manifest.FileName)
			}
			return nil, fmt.Errorf("%w: %w", ErrMerge, err)
		}
		inputs[i] = mergeInput{dir: d, m: m}
	}
	if err := checkOut(out); err != nil {
		return nil, err
	}
	merged, err := mergeManifests(inputs)
	if err != nil {
		return nil, err
	}
	err = atomicfile.ReplaceDir(out, func(tmp string) error {
		copied := map[string]bool{} // a package's build log is shared by its benchmarks
		for _, in := range inputs {
			for _, e := range in.m.Benchmarks {
				if e.Profile != "" {
					if err := copyChecked(in.dir, e.Profile, tmp, e.ProfileSHA256); err != nil {
						return err
					}
				}
				if e.Functions != "" {
					if err := copyChecked(in.dir, e.Functions, tmp, e.FunctionsSHA256); err != nil {
						return err
					}
				}
				if e.Log != "" && !copied[e.Log] {
					copied[e.Log] = true
					if err := copyChecked(in.dir, e.Log, tmp, ""); err != nil {
						return err
					}
				}
			}
		}
		return merged.Write(tmp)
	})
	if err != nil {
		return nil, err
	}
	return merged, nil
}

// A mergeInput is one directory given to Merge.
type mergeInput struct {
	dir string
	m   *manifest.Manifest
}

// checkOut checks that out may be replaced: it does not exist, or is an
// empty directory, or an output directory.
func checkOut(out string) error {
	fi, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return mergeErrorf("output directory %s: %v", out, err)
	}
	if !fi.IsDir() {
		return mergeErrorf("output directory %s is not a directory", out)
	}
	if _, err := os.Stat(filepath.Join(out, manifest.FileName)); err == nil {
		return nil
	}
	names, err := os.ReadDir(out)
	if err != nil {
		return mergeErrorf("output directory %s: %v", out, err)
	}
	if len(names) > 0 {
		return mergeErrorf("output directory %s is not empty and holds no %s; merge replaces it as a whole, so give a new or empty directory, or an earlier output", out, manifest.FileName)
	}
	return nil
}

// mergeManifests checks that inputs make up one collection and returns
// the merged manifest.
func mergeManifests(inputs []mergeInput) (*manifest.Manifest, error) {
	first := inputs[0]
	for _, in := range inputs[1:] {
		if err := sameCollection(first, in); err != nil {
			return nil, err
		}
	}
	var whole []string
	for _, in := range inputs {
		if in.m.Shard == nil {
			whole = append(whole, in.dir)
		}
	}
	if len(whole) > 0 {
		if len(inputs) > 1 {
			return nil, mergeErrorf("%s is a whole collection, not a shard; merge either the shards of one collection or one whole collection", strings.Join(whole, ", "))
		}
		m := *first.m
		m.Benchmarks = slices.Clone(first.m.Benchmarks)
		return &m, nil
	}

	n := first.m.Shard.Count
	byIndex := make([]string, n)
	owner := map[string]string{}
	total := 0
	for _, in := range inputs {
		sh := in.m.Shard
		if sh.Count != n {
			return nil, mergeErrorf("%s is shard %d/%d but %s is shard %d/%d: every shard of one collection has the same N", first.dir, first.m.Shard.Index, n, in.dir, sh.Index, sh.Count)
		}
		if sh.Inputs != first.m.Shard.Inputs || sh.Total != first.m.Shard.Total {
			return nil, mergeErrorf("%s and %s partitioned different benchmarks or costs (%d benchmarks, %s; %d benchmarks, %s): the shards found different benchmarks, or balanced different previous manifests; give every shard the same previous collection and collect them again",
				first.dir, in.dir, first.m.Shard.Total, short(first.m.Shard.Inputs), sh.Total, short(sh.Inputs))
		}
		if !sh.Complete {
			return nil, mergeErrorf("%s: shard %d/%d did not finish (its run was interrupted); run it again", in.dir, sh.Index, sh.Count)
		}
		if len(in.m.Benchmarks) != sh.Benchmarks {
			return nil, mergeErrorf("%s: shard %d/%d lists %d benchmarks, but its share has %d; collect the shard again", in.dir, sh.Index, sh.Count, len(in.m.Benchmarks), sh.Benchmarks)
		}
		if prev := byIndex[sh.Index]; prev != "" {
			return nil, mergeErrorf("%s and %s are both shard %d/%d (overlapping shards); give each shard once", prev, in.dir, sh.Index, n)
		}
		byIndex[sh.Index] = in.dir
		for _, e := range in.m.Benchmarks {
			if prev, dup := owner[e.ID]; dup {
				return nil, mergeErrorf("benchmark %s is in both %s and %s (overlapping shards); collect them again with the same inputs", e.ID, prev, in.dir)
			}
			owner[e.ID] = in.dir
		}
		total += sh.Benchmarks
	}
	var missing []string
	for k, d := range byIndex {
		if d == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	if len(missing) > 0 {
		return nil, mergeErrorf("missing %s of %d: shard %s (given: %s); merge every shard", textutil.Plural(len(missing), "shard"), n, strings.Join(missing, ", "), joinDirs(byIndex))
	}
	if total != first.m.Shard.Total {
		return nil, mergeErrorf("the shards in %s hold %d benchmarks, but %d were partitioned; collect them again", joinDirs(byIndex), total, first.m.Shard.Total)
	}
	m := *first.m
	m.Shard = nil
	m.Benchmarks = make([]manifest.Entry, 0, total)
	for _, in := range inputs {
		m.Benchmarks = append(m.Benchmarks, in.m.Benchmarks...)
	}
	m.Sort()
	return &m, nil
}

// sameCollection checks that a and b describe the same module, revision,
// toolchain, build flags and benchtime.
func sameCollection(a, b mergeInput) error {
	for _, f := range []struct{ what, x, y string }{
		{"module", a.m.Module, b.m.Module},
		{"VCS revision", revision(a.m), revision(b.m)},
		{"Go version", a.m.GoVersion, b.m.GoVersion},
		{"GOOS/GOARCH", a.m.GOOS + "/" + a.m.GOARCH, b.m.GOOS + "/" + b.m.GOARCH},
		{"build flags", strings.Join(a.m.BuildFlags, " "), strings.Join(b.m.BuildFlags, " ")},
		{"benchtime", a.m.BenchTime, b.m.BenchTime},
		{"source", string(orProfile(a.m.Source)), string(orProfile(b.m.Source))},
	} {
		if f.x != f.y {
			return mergeErrorf("%s and %s differ in %s (%s; %s): merge only the shards of one collection", a.dir, b.dir, f.what, orNone(f.x), orNone(f.y))
		}
	}
	return nil
}

// orProfile returns s, or SourceProfile for the empty source.
func orProfile(s manifest.Source) manifest.Source {
	if s == "" {
		return manifest.SourceProfile
	}
	return s
}

// revision returns m's VCS revision, marked when the tree was modified.
func revision(m *manifest.Manifest) string {
	if m.VCSModified {
		return m.VCSRevision + " with uncommitted changes"
	}
	return m.VCSRevision
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// short shortens a digest for messages.
func short(digest string) string {
	if len(digest) > len("sha256:")+12 {
		return digest[:len("sha256:")+12]
	}
	return digest
}

// joinDirs lists the non-empty directories of byIndex.
func joinDirs(byIndex []string) string {
	var ds []string
	for _, d := range byIndex {
		if d != "" {
			ds = append(ds, d)
		}
	}
	return strings.Join(ds, ", ")
}

// copyChecked copies dir/rel to tmp/rel; with a non-empty sum, the copy's
// SHA-256 must be sum.
func copyChecked(dir, rel, tmp, sum string) error {
	src := filepath.Join(dir, filepath.FromSlash(rel))
	f, _, err := regfile.Open(src)
	if err != nil {
		return mergeErrorf("%s: %v; the manifest names it, collect the shard again", src, err)
	}
	defer f.Close()
	dst := filepath.Join(tmp, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	w, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(w, h), f); err != nil {
		w.Close()
		return fmt.Errorf("copying %s: %w", src, err)
	}
	if err := w.Close(); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); sum != "" && got != sum {
		return mergeErrorf("%s: SHA-256 %s, but the manifest records %s: the profile changed after it was collected; collect the shard again", src, got[:12], sum[:min(12, len(sum))])
	}
	return nil
}
