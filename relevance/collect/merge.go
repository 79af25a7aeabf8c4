package collect

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/shard"
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

	parts := make([]shard.Part, len(inputs))
	total := 0
	for i, in := range inputs {
		sh := in.m.Shard
		if !sh.Complete {
			return nil, mergeErrorf("%s: shard %s did not finish (its run was interrupted); run it again", in.dir, sh)
		}
		if len(in.m.Benchmarks) != sh.Benchmarks {
			return nil, mergeErrorf("%s: shard %s lists %d benchmarks, but its share has %d; collect the shard again", in.dir, sh, len(in.m.Benchmarks), sh.Benchmarks)
		}
		parts[i] = shard.Part{Name: in.dir, Record: sh.Record, IDs: make([]string, len(in.m.Benchmarks))}
		for k, e := range in.m.Benchmarks {
			parts[i].IDs[k] = e.ID
		}
		total += sh.Benchmarks
	}
	if err := shard.CheckPartition(parts, true); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMerge, err)
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
// toolchain, build flags, benchtime, source and scope.
func sameCollection(a, b mergeInput) error {
	for _, f := range []struct{ what, x, y string }{
		{"module", a.m.Module, b.m.Module},
		{"VCS revision", revision(a.m), revision(b.m)},
		{"Go version", a.m.GoVersion, b.m.GoVersion},
		{"GOOS/GOARCH", a.m.GOOS + "/" + a.m.GOARCH, b.m.GOOS + "/" + b.m.GOARCH},
		{"build flags", strings.Join(a.m.BuildFlags, " "), strings.Join(b.m.BuildFlags, " ")},
		{"benchtime", a.m.BenchTime, b.m.BenchTime},
		{"source", string(orProfile(a.m.Source)), string(orProfile(b.m.Source))},
		{"scope", string(orAll(a.m.Scope)), string(orAll(b.m.Scope))},
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

// orAll returns s, or ScopeAll for the empty scope.
func orAll(s manifest.Scope) manifest.Scope {
	if s == "" {
		return manifest.ScopeAll
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

// copyChecked copies dir/rel to tmp/rel; with a non-empty sum, the copy's
// SHA-256 must be sum (see [shard.File.Copy]).
func copyChecked(dir, rel, tmp, sum string) error {
	src := filepath.Join(dir, filepath.FromSlash(rel))
	dst := filepath.Join(tmp, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	w, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	err = shard.File{Size: -1, SHA256: sum}.Copy(w, src)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, shard.ErrChanged):
		return mergeErrorf("%v; collect the shard again", err)
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, regfile.ErrNotRegular):
		return mergeErrorf("%s: %v; the manifest names it, collect the shard again", src, err)
	}
	return err
}
