package compare

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/internal/statedir"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/shard"
)

// ShardFile is the name of the shard record [Run] writes next to the raw
// files when Options.Shard or Options.TrialShard is set; [Merge] reads it.
const ShardFile = "shard.json"

// The kinds of a [ShardRecord].
const (
	// ShardBenchmarks: each shard ran all trials of its share of the
	// benchmarks, both versions on one machine (a duet).
	ShardBenchmarks = "benchmarks"
	// ShardTrials: each shard ran every benchmark, but only its share of
	// the trials; each machine is one of the study's instance runs.
	ShardTrials = "trials"
)

// A ShardRecord says which share of a comparison one shard ran, so that
// [Merge] can check that the shards fit together.
type ShardRecord struct {
	// Schema is SchemaVersion.
	Schema int `json:"schema"`
	// Kind is ShardBenchmarks or ShardTrials.
	Kind string `json:"kind"`
	// Record is package shard's one shard record: the shard's Index of
	// Count, the Digest of what was partitioned (every benchmark and its
	// cost; all shards of one comparison have the same) and the Total
	// number of benchmarks partitioned (of all shards).
	shard.Record
	// Module is the module path.
	Module string `json:"module"`
	// Base and Head are the revisions compared.
	Base Revision `json:"base"`
	// Head is the head revision.
	Head Revision `json:"head"`
	// Settings are the settings the shard ran with: Requested, with the
	// Trials, Runs and Count that Requested.Budget fitted to the shard's
	// machine (the same as Requested without a budget).
	Settings Settings `json:"settings"`
	// Requested are the settings the shard was asked to run with
	// (Options.Settings with the defaults filled in). [Merge] requires
	// every shard of one comparison to have the same, field for field.
	Requested Settings `json:"requested"`
	// Benchmarks are the ids of the benchmarks (top-level, package +
	// "." + name) the shard ran, sorted.
	Benchmarks []string `json:"benchmarks"`
	// Trials are the trials (from 1) the shard ran.
	Trials []int `json:"trials"`
	// Files are the size and SHA-256 of the raw files BaseFile and
	// HeadFile as the shard wrote them, by name: [Merge] refuses a raw
	// file that changed since.
	Files map[string]shard.File `json:"files"`
	// Failures are the shard's results with status BuildFailed, Failed or
	// Skipped, which the raw files cannot hold.
	Failures []Result `json:"failures,omitempty"`
	// Application says the shard knew the application's reference
	// profile (Options.Relevance.Application, which mbopt compare's
	// analysis flags give), so each result it explained has its estimated
	// application impact. A merge gated by FailOnAppImpact needs it of
	// every shard (mbopt compare merge refuses the gate otherwise). False
	// when the shard ran without the analysis, and in the records of an
	// mbopt older than this field.
	Application bool `json:"application,omitempty"`
	// Explained are what the shard found of its explained results, which
	// the raw files cannot hold either: their culprits, Explained, AppImpact
	// and Profiles (relative to the shard's directory), by ID and Unit;
	// the other fields are left out. Sorted by ID, then Unit.
	Explained []Result `json:"explained,omitempty"`
}

// addExplained records in rec what the shard, whose output directory is
// out, found of the explained results of rs (see [ShardRecord].Explained).
func (rec *ShardRecord) addExplained(rs []Result, out string) {
	rec.Explained = nil
	for _, r := range rs {
		if r.Explained == nil && r.Culprits == nil && r.AppImpact == nil {
			continue
		}
		x := Result{ID: r.ID, Package: r.Package, Name: r.Name, Unit: r.Unit, Status: r.Status,
			Culprits: r.Culprits, Explained: r.Explained, AppImpact: r.AppImpact}
		if p := r.Profiles; p != nil {
			b, errB := filepath.Rel(out, p.Base)
			h, errH := filepath.Rel(out, p.Head)
			if errB == nil && errH == nil && filepath.IsLocal(b) && filepath.IsLocal(h) {
				x.Profiles = &Profiles{Base: filepath.ToSlash(b), Head: filepath.ToSlash(h)}
			}
		}
		rec.Explained = append(rec.Explained, x)
	}
	slices.SortFunc(rec.Explained, func(a, b Result) int {
		return cmp.Or(strings.Compare(a.ID, b.ID), strings.Compare(a.Unit, b.Unit))
	})
}

// withExplained gives the merged results rs what the shards found of the
// results they explained (ShardRecord.Explained): culprits, Explained and
// the application impact, and the profiles, copied from the shard's
// directory dirs[i] into out's [CulpritDir] (left out when the shard's
// files are gone). With trial shards every shard explained its own
// trials of a benchmark; the first shard by index that explained it
// counts, and the returned note says so.
func withExplained(rs []Result, recs []*ShardRecord, dirs []string, byIndex []int, out string) ([]string, error) {
	type key struct{ id, unit string }
	found := map[key]Result{}
	from := map[key]int{}
	for _, i := range byIndex {
		for _, x := range recs[i].Explained {
			k := key{x.ID, x.Unit}
			if _, ok := found[k]; !ok {
				found[k], from[k] = x, i
			}
		}
	}
	var notes []string
	shards := map[int]bool{}
	for j := range rs {
		r := &rs[j]
		k := key{r.ID, r.Unit}
		x, ok := found[k]
		if !ok || r.Status != Compared {
			continue
		}
		i := from[k]
		shards[i] = true
		r.Culprits, r.Explained, r.AppImpact = x.Culprits, x.Explained, x.AppImpact
		if p := x.Profiles; p != nil {
			dst := filepath.Join(out, CulpritDir)
			var paths [2]string
			ok := true
			for side, rel := range []string{p.Base, p.Head} {
				src := filepath.Join(dirs[i], filepath.FromSlash(rel))
				if !filepath.IsLocal(filepath.FromSlash(rel)) {
					ok = false
					break
				}
				data, err := regfile.ReadFile(src, 1<<30)
				if err != nil {
					ok = false
					break
				}
				if err := statedir.MkdirAll(dst); err != nil {
					return nil, err
				}
				paths[side] = filepath.Join(dst, filepath.Base(src))
				if err := atomicfile.WriteFile(paths[side], data); err != nil {
					return nil, err
				}
			}
			if ok {
				r.Profiles = &Profiles{Base: paths[0], Head: paths[1]}
			}
		}
	}
	if len(shards) > 0 && recs[byIndex[0]].Kind == ShardTrials {
		var names []string
		for _, i := range slices.Sorted(maps.Keys(shards)) {
			names = append(names, fmt.Sprintf("%d/%d", recs[i].Index, recs[i].Count))
		}
		notes = append(notes, fmt.Sprintf("culprits and application impacts from trial shard %s, each from that shard's trials only", strings.Join(names, ", ")))
	}
	return notes, nil
}

// shardRecord returns the record of a sharded comparison's share, with
// the failures of rep, and notes it; nil when the comparison is not
// sharded. requested are the settings the shard was asked to run with;
// app says whether it knew the application's reference profile.
func (c *comparison) shardRecord(rep *Report, requested Settings, app bool) *ShardRecord {
	sh := c.raw.Share
	if sh == nil {
		return nil
	}
	rec := &ShardRecord{Schema: SchemaVersion, Kind: ShardBenchmarks, Record: sh.Record, Module: c.raw.Module, Benchmarks: sh.Benchmarks}
	if sh.Trials {
		rec.Kind = ShardTrials
	}
	rec.Base, rec.Head, rec.Settings, rec.Requested = c.raw.Base, c.raw.Head, c.s, requested
	rec.Trials, rec.Application = c.raw.Trials, app
	rec.Files = map[string]shard.File{BaseFile: c.raw.Written[Base], HeadFile: c.raw.Written[Head]}
	for _, res := range rep.Results {
		if res.Status == BuildFailed || res.Status == Failed || res.Status == Skipped {
			rec.Failures = append(rec.Failures, res)
		}
	}
	c.note(rec.note())
	return rec
}

// writeShardRecord writes rec into out, or removes a stale record of an
// earlier sharded run when rec is nil.
func writeShardRecord(out string, rec *ShardRecord) error {
	path := filepath.Join(out, ShardFile)
	if rec == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(data, '\n'))
}

// ErrMerge matches (with errors.Is) every error of [Merge] about shard
// directories that do not fit together or cannot be read.
var ErrMerge = errors.New("compare shards do not merge")

// mergeError names the directories at fault.
func mergeError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMerge, fmt.Sprintf(format, args...))
}

// ReadShard reads the shard record and checks the raw files of one
// shard's output directory.
func ReadShard(dir string) (*ShardRecord, error) {
	data, err := regfile.ReadFile(filepath.Join(dir, ShardFile), 16<<20)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, mergeError("%s has no %s: it is not the output of mbopt compare --shard or --trial-shard", dir, ShardFile)
		}
		return nil, mergeError("%s: %v", dir, err)
	}
	var rec ShardRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, mergeError("%s: %v", filepath.Join(dir, ShardFile), err)
	}
	if rec.Schema != SchemaVersion || (rec.Kind != ShardBenchmarks && rec.Kind != ShardTrials) || !rec.Valid() {
		return nil, mergeError("%s: not a shard record of this mbopt (schema %d, kind %q, shard %d/%d)", filepath.Join(dir, ShardFile), rec.Schema, rec.Kind, rec.Index, rec.Count)
	}
	if err := rec.checkSettings(); err != nil {
		return nil, mergeError("%s: %v; run the shard again with this mbopt", filepath.Join(dir, ShardFile), err)
	}
	for _, f := range rec.Failures {
		// The merge puts them in its report as they are: nothing but a
		// failure may come in that way.
		if (f.Status != BuildFailed && f.Status != Failed && f.Status != Skipped) || f.Estimate != nil || f.Verdict != benchstats.Unchanged || f.Error == "" {
			return nil, mergeError("%s: failure %s is not a failed, unbuilt or skipped benchmark (status %q); run the shard again", filepath.Join(dir, ShardFile), f.ID, f.Status)
		}
	}
	for _, x := range rec.Explained {
		if x.ID == "" || x.Estimate != nil || x.Status != Compared {
			return nil, mergeError("%s: explained result %q is not what a shard records (status %q); run the shard again", filepath.Join(dir, ShardFile), x.ID, x.Status)
		}
	}
	for _, f := range []string{BaseFile, HeadFile} {
		if err := rec.copyRaw(io.Discard, dir, f); err != nil {
			return nil, err
		}
	}
	return &rec, nil
}

// copyRaw copies the raw file f of the shard in dir to w, checking that
// it is the file the shard wrote (see [shard.File.Copy]).
func (rec *ShardRecord) copyRaw(w io.Writer, dir, f string) error {
	path := filepath.Join(dir, f)
	want, ok := rec.Files[f]
	if !ok || want.Size < 0 || want.SHA256 == "" {
		return mergeError("%s records no size and SHA-256 of %s: an older mbopt wrote it; run the shard again with this mbopt", filepath.Join(dir, ShardFile), f)
	}
	if err := want.Copy(w, path); err != nil {
		if errors.Is(err, shard.ErrChanged) {
			return mergeError("%v; run the shard again", err)
		}
		return mergeError("%s: %v (an interrupted shard writes no raw files; run it again)", path, err)
	}
	return nil
}

// checkSettings checks that the settings the shard ran with are valid and
// are those it was asked for, but for the schedule a budget fits to a
// machine (see fitBudget): the only fields in which the shards of one
// comparison may have run differently.
func (rec *ShardRecord) checkSettings() error {
	if err := rec.Settings.check(); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	want := rec.Requested
	if want.Budget > 0 {
		want.Trials, want.Runs, want.Count = rec.Settings.Trials, rec.Settings.Runs, rec.Settings.Count
	}
	if d := rec.Settings.differences(want); len(d) > 0 {
		return fmt.Errorf("it ran with settings other than those requested (%s), which only a budget may change, and only trials, runs and count", strings.Join(d, ", "))
	}
	return nil
}

// Merge combines the outputs of the shards of one comparison (the
// directories [Run] wrote with Options.Shard or Options.TrialShard): it
// checks that they fit together — the same module, revisions, settings,
// kind and number of shards, the same partition, every shard exactly
// once and no benchmark in two shards — concatenates their raw files into
// out (atomically) and computes the report over all of them with
// [Analyze], so the verdicts use every trial of every shard. Each result
// keeps what its shard found of it beyond the raw files: its culprits,
// Explained and application impact, and its profiles, copied into out's
// [CulpritDir] (see [ShardRecord].Explained). impacts may be nil. Errors about the inputs match [ErrMerge] and name the
// directories.
func Merge(dirs []string, out string, impacts map[string]callgraph.Impact) (*Report, error) {
	if len(dirs) == 0 {
		return nil, mergeError("no shard directories given")
	}
	if fi, err := os.Stat(out); err == nil && !fi.IsDir() {
		return nil, mergeError("the output directory %s is a file; choose a directory", out)
	}
	recs := make([]*ShardRecord, len(dirs))
	seen := map[string]string{}
	for i, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, mergeError("%s: %v", d, err)
		}
		if prev, ok := seen[abs]; ok {
			return nil, mergeError("%s is given twice (also as %s)", d, prev)
		}
		seen[abs] = d
		if o, err := filepath.Abs(out); err == nil && o == abs {
			return nil, mergeError("the output directory %s is one of the shards; write the merge elsewhere", out)
		}
		if recs[i], err = ReadShard(d); err != nil {
			return nil, err
		}
	}
	first := recs[0]
	parts := make([]shard.Part, len(recs))
	for i, rec := range recs {
		d := dirs[i]
		parts[i] = shard.Part{Name: d, Record: rec.Record, IDs: rec.Benchmarks}
		switch {
		case rec.Kind != first.Kind:
			return nil, mergeError("%s is sharded by %s, %s by %s", dirs[0], first.Kind, d, rec.Kind)
		case rec.Module != first.Module:
			return nil, mergeError("%s compared module %s, %s module %s", dirs[0], first.Module, d, rec.Module)
		case rec.Base.Commit != first.Base.Commit || rec.Head.Commit != first.Head.Commit:
			return nil, mergeError("%s compared %.12s → %.12s, %s compared %.12s → %.12s; every shard must compare the same commits", dirs[0], first.Base.Commit, first.Head.Commit, d, rec.Base.Commit, rec.Head.Commit)
		case rec.Base.Dirty || rec.Head.Dirty:
			return nil, mergeError("%s compared uncommitted changes, which other machines cannot reproduce; shard a comparison of commits", d)
		}
		if diff := first.Requested.differences(rec.Requested); len(diff) > 0 {
			return nil, mergeError("%s and %s were run with different settings (%s); run every shard with the same flags", dirs[0], d, strings.Join(diff, "; "))
		}
	}
	if err := shard.CheckPartition(parts, first.Kind == ShardBenchmarks); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMerge, err)
	}
	byIndex := make([]int, first.Count)
	for i, rec := range recs {
		byIndex[rec.Index] = i
	}

	// Concatenate each version's raw files, in shard order.
	var raws [2]bytes.Buffer
	for _, i := range byIndex {
		for side, f := range []string{BaseFile, HeadFile} {
			if err := recs[i].copyRaw(&raws[side], dirs[i], f); err != nil {
				return nil, err
			}
			if n := raws[side].Len(); n > 0 && raws[side].Bytes()[n-1] != '\n' {
				raws[side].WriteByte('\n')
			}
		}
	}
	inputs := []Input{{Name: "base (merged)", R: bytes.NewReader(raws[Base].Bytes())}, {Name: "head (merged)", R: bytes.NewReader(raws[Head].Bytes())}}
	rep, err := AnalyzeReaders(inputs, first.Settings, impacts)
	if err != nil {
		return nil, err
	}
	if err := statedir.MkdirAll(out); err != nil {
		return nil, mergeError("cannot create the output directory %s: %v; choose another", out, err)
	}
	for side, f := range []string{BaseFile, HeadFile} {
		if err := atomicfile.WriteFile(filepath.Join(out, f), raws[side].Bytes()); err != nil {
			return nil, err
		}
	}
	if err := writeShardRecord(out, nil); err != nil {
		return nil, err
	}
	rep.Results = withFailures(rep.Results, recs)
	notes, err := withExplained(rep.Results, recs, dirs, byIndex, out)
	if err != nil {
		return nil, err
	}
	rep.Module, rep.Base, rep.Head = first.Module, first.Base, first.Head
	rep.Raw = map[string]string{"base": BaseFile, "head": HeadFile}
	rep.Notes = append(rep.Notes, fmt.Sprintf("merged %s, sharded by %s", textutil.Plural(first.Count, "shard"), first.Kind))
	rep.Notes = append(rep.Notes, notes...)
	return rep, nil
}

// withFailures puts the shards' failed, unbuilt and skipped benchmarks
// into the merged results: a benchmark that failed (or skipped itself) in
// one version has results only
// from the other, which the raw files make look added or removed.
func withFailures(rs []Result, recs []*ShardRecord) []Result {
	failed := map[string]bool{}
	var fs []Result
	for _, rec := range recs {
		for _, f := range rec.Failures {
			if !failed[f.ID+"\x00"+f.Unit] {
				failed[f.ID+"\x00"+f.Unit] = true
				fs = append(fs, f)
			}
			failed[f.ID] = true
		}
	}
	rs = slices.DeleteFunc(rs, func(r Result) bool {
		return failed[r.ID] && (r.Status == Added || r.Status == Removed || failed[r.ID+"\x00"+r.Unit])
	})
	rs = append(rs, fs...)
	SortResults(rs)
	return rs
}

// note describes the shard's share for the report's notes.
func (rec *ShardRecord) note() string {
	if rec.Kind == ShardTrials {
		return fmt.Sprintf("trial shard %d/%d: ran trials %v of %d of all %s; merge the shards' outputs with mbopt compare merge",
			rec.Index, rec.Count, rec.Trials, rec.Settings.Trials, textutil.Plural(rec.Total, "benchmark"))
	}
	return fmt.Sprintf("shard %d/%d: ran %d of the %s, all trials; merge the shards' outputs with mbopt compare merge",
		rec.Index, rec.Count, len(rec.Benchmarks), textutil.Plural(rec.Total, "benchmark"))
}
