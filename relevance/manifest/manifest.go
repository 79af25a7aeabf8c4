package manifest

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/relevance/shard"
)

// FileName is the name of the manifest inside an output directory.
const FileName = "manifest.json"

// SchemaVersion is the manifest schema version of collections of CPU
// profiles. [Manifest.Write] writes it unless the manifest holds function
// sets, and [Read] reads it.
const SchemaVersion = 1

// SchemaVersionCover is the schema version of a manifest whose Source is
// [SourceCover] (or [SourceInstructions] with scope all): version 1 plus
// the source and functions fields. Write
// writes it for such manifests only, so an mbopt that knows only version 1
// refuses them ("manifest version 2, want 1") instead of taking their
// entries for profiles gone missing; [Read] reads both versions.
const SchemaVersionCover = 2

// SchemaVersionTimed is the schema version of a manifest whose Scope is
// [ScopeTimed] (source cover or instructions): version 2 plus the scope
// field. Write writes it for such
// manifests only, so an mbopt that knows only versions 1 and 2 refuses
// them instead of taking sets of timed loops for sets of whole runs; [Read]
// reads all three versions.
const SchemaVersionTimed = 3

// A Scope says what part of a benchmark's run its function set counts.
type Scope string

// The scopes of a [Manifest].
const (
	// ScopeAll: everything the benchmark's process ran, its setup before
	// b.ResetTimer, its validation after b.StopTimer and the parent's
	// work before b.Run included, as a CPU profile of the run does and as
	// the papers count. It is what an empty Scope means.
	ScopeAll Scope = "all"
	// ScopeTimed: what grew between two runs of the benchmark at
	// different iteration counts, that is, what runs more often when b.N
	// grows: the timed loop. With SourceCover the functions whose coverage
	// counters grew; with SourceInstructions each function's instructions
	// per operation, from the difference of the two runs' counts. Only
	// those two sources have it.
	ScopeTimed Scope = "timed"
)

// A Source says what a collection recorded for each benchmark.
type Source string

// The sources of a [Manifest].
const (
	// SourceProfile: one CPU profile per benchmark (Entry.Profile). It is
	// what an empty Source means.
	SourceProfile Source = "profile"
	// SourceCover: the set of functions each benchmark executed, from a
	// run of a test binary built with -cover (Entry.Functions, a file
	// written by package covdata).
	SourceCover Source = "cover"
	// SourceInstructions: one pprof profile per benchmark
	// (Entry.Profile) of the instructions each function executed,
	// counted under Valgrind and credited by source line to the function
	// whose body encloses the line (package opprof): with ScopeTimed
	// instructions per operation from the difference of two iteration
	// counts, with ScopeAll the whole run's counts. The analysis reads
	// them like CPU profiles, weighted in instructions.
	SourceInstructions Source = "instructions"
)

// A Status says how collecting one benchmark ended.
type Status string

// The statuses of an [Entry].
const (
	// StatusOK means the benchmark ran and its profile is complete.
	StatusOK Status = "ok"
	// StatusFailed means the benchmark panicked, failed (b.Fatal, b.Error),
	// exited with an error, or wrote no readable profile.
	StatusFailed Status = "failed"
	// StatusTimeout means the benchmark's process ran past the timeout
	// and was killed.
	StatusTimeout Status = "timeout"
	// StatusBuildFailed means the package's test binary did not build.
	StatusBuildFailed Status = "build-failed"
	// StatusSkipped means the benchmark called b.Skip.
	StatusSkipped Status = "skipped"
)

// A Manifest records one collection: where the profiles came from and, for
// every benchmark, how collecting it ended. See the package documentation
// for the JSON schema.
type Manifest struct {
	// Version is the schema version, SchemaVersion.
	Version int `json:"version"`
	// Module is the main module's path.
	Module string `json:"module"`
	// GoVersion is the go toolchain version, as in "go1.26.8".
	GoVersion string `json:"go_version"`
	// GOOS is the operating system the test binaries were built for.
	GOOS string `json:"goos"`
	// GOARCH is the architecture they were built for.
	GOARCH string `json:"goarch"`
	// VCSRevision is the commit checked out in the module, when known.
	VCSRevision string `json:"vcs_revision,omitempty"`
	// VCSModified reports uncommitted changes to tracked files.
	VCSModified bool `json:"vcs_modified,omitempty"`
	// BenchTime is the -test.benchtime of the run that wrote the manifest.
	BenchTime string `json:"benchtime"`
	// BuildFlags are the go build flags the test binaries were built with
	// (such as "-tags=integration", "-mod=vendor"), in the order go test
	// got them; nil (omitted) when there were none.
	BuildFlags []string `json:"build_flags,omitempty"`
	// Shard is set when the manifest holds one shard's share of a sharded
	// collection, and nil for a whole collection, including one merged
	// from shards.
	Shard *Shard `json:"shard,omitempty"`
	// Source says what the entries record: CPU profiles (SourceProfile,
	// or empty, as in every version 1 manifest), function sets
	// (SourceCover) or instruction profiles (SourceInstructions). One
	// manifest never mixes them.
	Source Source `json:"source,omitempty"`
	// Scope says what part of each benchmark's run the function sets or
	// instruction profiles count: ScopeTimed, or everything (ScopeAll, or
	// empty, as in every version 1 and 2 manifest). Only a cover or
	// instructions manifest is timed.
	Scope Scope `json:"scope,omitempty"`
	// Benchmarks holds one entry per benchmark, sorted by package, then
	// name; IDs are unique.
	Benchmarks []Entry `json:"benchmarks"`
}

// A Shard records which share of a sharded collection a manifest holds
// and what the partition was computed from, so that a merge can check that
// its inputs are the shards of one partition, all of them, once each
// (shard.CheckPartition).
//
// Its Record is package shard's one shard record: Index and Count, the
// Digest of the partitioned benchmarks and their costs ("sha256:" and the
// hex SHA-256 of the sorted "ID<TAB>cost" lines, see shard.Digest), which
// the manifest's JSON calls "inputs", and the Total number of benchmarks
// partitioned over all shards.
type Shard struct {
	// Record is the shard's index, count, partition digest and total.
	shard.Record
	// Benchmarks is the number of benchmarks in this shard's share; a
	// complete shard manifest has exactly that many entries.
	Benchmarks int
	// ByCount reports that no costs were known, so the partition balanced
	// the number of benchmarks per shard instead of their cost.
	ByCount bool
	// Complete reports that the shard's run finished; a run that was
	// interrupted leaves it false.
	Complete bool
}

// shardJSON is a [Shard] as a manifest stores it.
type shardJSON struct {
	Index      int    `json:"index"`
	Count      int    `json:"count"`
	Inputs     string `json:"inputs"`
	Total      int    `json:"total"`
	Benchmarks int    `json:"benchmarks"`
	ByCount    bool   `json:"by_count,omitempty"`
	Complete   bool   `json:"complete"`
}

// MarshalJSON writes s with the manifest's keys: index, count, inputs (the
// Digest), total, benchmarks, by_count (omitted when false) and complete.
func (s Shard) MarshalJSON() ([]byte, error) {
	return json.Marshal(shardJSON{Index: s.Index, Count: s.Count, Inputs: s.Digest, Total: s.Total,
		Benchmarks: s.Benchmarks, ByCount: s.ByCount, Complete: s.Complete})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *Shard) UnmarshalJSON(data []byte) error {
	var j shardJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*s = Shard{Record: shard.Record{Index: j.Index, Count: j.Count, Digest: j.Inputs, Total: j.Total},
		Benchmarks: j.Benchmarks, ByCount: j.ByCount, Complete: j.Complete}
	return nil
}

// An Entry records one benchmark of a [Manifest].
type Entry struct {
	// ID is Package + "." + Name; see [benchname.ID].
	ID string `json:"id"`
	// Package is the import path of the benchmark's package.
	Package string `json:"package"`
	// Dir is the package directory relative to the module root, with "/"
	// separators ("." for the root).
	Dir string `json:"dir"`
	// Name is the full benchmark name as go test prints it, without the
	// GOMAXPROCS suffix.
	Name string `json:"name"`
	// Status says how collecting ended.
	Status Status `json:"status"`
	// Profile is the CPU profile's file name, relative to the manifest's
	// directory. It is set if and only if Status is StatusOK.
	Profile string `json:"profile,omitempty"`
	// ProfileSHA256 is the hex SHA-256 of the profile file's contents, as
	// collected; a rerun reuses the profile only when the file still has
	// this hash. Empty in manifests written before it was recorded.
	ProfileSHA256 string `json:"profile_sha256,omitempty"`
	// Functions is the function set's file name (see package covdata),
	// relative to the manifest's directory, in a manifest whose Source is
	// SourceCover. It is set there, instead of Profile, if and only if
	// Status is StatusOK.
	Functions string `json:"functions,omitempty"`
	// FunctionsSHA256 is the hex SHA-256 of the Functions file, as
	// collected; a rerun reuses the set only when the file still has this
	// hash.
	FunctionsSHA256 string `json:"functions_sha256,omitempty"`
	// Samples is the number of samples in the profile.
	Samples int `json:"samples,omitempty"`
	// WallSeconds is the wall time of the process that produced the entry.
	WallSeconds float64 `json:"wall_seconds"`
	// NsPerOp is the ns/op go test reported for this benchmark; zero
	// (omitted) when it reported none, as for a top-level benchmark with
	// sub-benchmarks profiled as one unit.
	NsPerOp float64 `json:"ns_per_op,omitempty"`
	// Iterations is the b.N go test reported with NsPerOp; zero (omitted)
	// likewise.
	Iterations int64 `json:"iterations,omitempty"`
	// Error explains a status other than ok: the panic, failure message or
	// build error, shortened to a few lines.
	Error string `json:"error,omitempty"`
	// Log is the file, relative to the manifest's directory, holding the
	// full output of a benchmark whose status is not ok.
	Log string `json:"log,omitempty"`
	// BenchTime is the -test.benchtime the benchmark ran with.
	BenchTime string `json:"benchtime,omitempty"`
	// TestBinary is "sha256:" and the hex SHA-256 of the test binary; empty
	// when the build failed.
	TestBinary string `json:"test_binary,omitempty"`
}

// ProfileName returns the profile file name for the benchmark name in package
// pkg of module mod: the package path relative to the module (the module's
// last element for its root package), ".", the name, made a file name of
// at most 120 bytes by [benchname.FileName], then "-", the first 8 hex
// digits of the SHA-256 of the ID (so different IDs never share a file;
// [benchname.UniqueFileName]), and ".pprof".
func ProfileName(mod, pkg, name string) string {
	rel := pkg
	switch {
	case pkg == mod:
		rel = path.Base(mod)
	case mod != "" && strings.HasPrefix(pkg, mod+"/"):
		rel = pkg[len(mod)+1:]
	}
	return benchname.UniqueFileName(benchname.ID(rel, name), benchname.ID(pkg, name), 120) + ".pprof"
}

// FunctionsName returns the function set file name for the benchmark name
// in package pkg of module mod: [ProfileName] with ".funcs.json" in place of
// ".pprof".
func FunctionsName(mod, pkg, name string) string {
	return strings.TrimSuffix(ProfileName(mod, pkg, name), ".pprof") + ".funcs.json"
}

// IsCover reports whether m records function sets (Source is SourceCover).
func (m *Manifest) IsCover() bool { return m.Source == SourceCover }

// IsInstructions reports whether m records instruction profiles (Source is
// SourceInstructions).
func (m *Manifest) IsInstructions() bool { return m.Source == SourceInstructions }

// IsTimed reports whether m's function sets or instruction profiles count
// the benchmarks' timed loops only (Scope is ScopeTimed).
func (m *Manifest) IsTimed() bool { return m.Scope == ScopeTimed }

// Sort sorts m.Benchmarks by package, then name.
func (m *Manifest) Sort() {
	slices.SortFunc(m.Benchmarks, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Name, b.Name))
	})
}

// Count returns the number of entries with status s.
func (m *Manifest) Count(s Status) int {
	n := 0
	for _, e := range m.Benchmarks {
		if e.Status == s {
			n++
		}
	}
	return n
}

// Problems returns the entries whose status is neither ok nor skipped, in
// manifest order.
func (m *Manifest) Problems() []Entry {
	var out []Entry
	for _, e := range m.Benchmarks {
		if e.Status != StatusOK && e.Status != StatusSkipped {
			out = append(out, e)
		}
	}
	return out
}

// Lookup returns the entry with the given ID.
func (m *Manifest) Lookup(id string) (Entry, bool) {
	for _, e := range m.Benchmarks {
		if e.ID == id {
			return e, true
		}
	}
	return Entry{}, false
}

// Load reads dir/manifest.json with [Read]. It fails when the file is
// missing (the error then matches fs.ErrNotExist), is not a regular file
// (never blocking on a named pipe), or [Read] fails; errors name the file.
func Load(dir string) (*Manifest, error) {
	file := filepath.Join(dir, FileName)
	f, _, err := regfile.Open(file)
	if errors.Is(err, regfile.ErrNotRegular) {
		return nil, fmt.Errorf("%s: %w; a manifest is a file written by 'mbopt profile'", file, err)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, file)
}

// Read parses a manifest from r; name (the file, for messages) starts every
// error. It fails when the data is not valid JSON, has a schema version
// other than SchemaVersion, SchemaVersionCover and SchemaVersionTimed, has
// an unknown source or scope, a timed scope without source cover or
// without version SchemaVersionTimed (or that version without it), has
// duplicate or empty ids, an entry whose profile, functions or log path is
// not local to the manifest's directory (absolute, or escaping it with
// ".."): a manifest only ever names files it sits next to; or an entry
// with a file of the other source (a profile in a cover manifest, a
// function set in a profile manifest). It also fails when Shard is set but
// names no valid shard (an index outside 0 to Count-1, or more benchmarks
// in the share than in the partition).
func Read(r io.Reader, name string) (*Manifest, error) {
	var m Manifest
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: parsing manifest: %w (the file is truncated or not a manifest; collect again with 'mbopt profile')", name, err)
	}
	if m.Version != SchemaVersion && m.Version != SchemaVersionCover && m.Version != SchemaVersionTimed {
		return nil, fmt.Errorf("%s: manifest version %d, want %d, %d or %d (written by another mbopt version?)", name, m.Version, SchemaVersion, SchemaVersionCover, SchemaVersionTimed)
	}
	switch m.Source {
	case "", SourceProfile, SourceCover, SourceInstructions:
	default:
		return nil, fmt.Errorf("%s: unknown source %q (want %q, %q or %q)", name, m.Source, SourceProfile, SourceCover, SourceInstructions)
	}
	switch {
	case m.Scope != "" && m.Scope != ScopeAll && m.Scope != ScopeTimed:
		return nil, fmt.Errorf("%s: unknown scope %q (want %q or %q)", name, m.Scope, ScopeTimed, ScopeAll)
	case m.IsTimed() && !m.IsCover() && !m.IsInstructions():
		return nil, fmt.Errorf("%s: scope %q in a manifest of source %q: only function sets (source %q) and instruction profiles (source %q) have a timed scope (the file was edited; collect again)", name, m.Scope, m.sourceName(), SourceCover, SourceInstructions)
	case m.IsTimed() != (m.Version == SchemaVersionTimed):
		return nil, fmt.Errorf("%s: manifest version %d with scope %q: version %d is the version of scope %q, and of it only (the file was edited; collect again)", name, m.Version, m.scopeName(), SchemaVersionTimed, ScopeTimed)
	}
	if sh := m.Shard; sh != nil && (!sh.Valid() || sh.Benchmarks < 0 || sh.Benchmarks > sh.Total) {
		return nil, fmt.Errorf("%s: shard %d of %d (%d of %d benchmarks) is not a shard; collect the shard again", name, sh.Index, sh.Count, sh.Benchmarks, sh.Total)
	}
	seen := make(map[string]bool, len(m.Benchmarks))
	for i, e := range m.Benchmarks {
		if e.ID == "" {
			return nil, fmt.Errorf("%s: benchmark %d (%q) has no id", name, i, e.Name)
		}
		if seen[e.ID] {
			return nil, fmt.Errorf("%s: duplicate benchmark id %q", name, e.ID)
		}
		seen[e.ID] = true
		if m.IsCover() && e.Profile != "" || !m.IsCover() && e.Functions != "" {
			return nil, fmt.Errorf("%s: benchmark %s: a manifest of source %q names a %s file; profiles and function sets never mix in one manifest (collect the two into different directories)", name, e.ID, m.sourceName(), map[bool]string{true: "profile", false: "function set"}[m.IsCover()])
		}
		for _, p := range []struct{ field, path string }{{"profile", e.Profile}, {"functions", e.Functions}, {"log", e.Log}} {
			if p.path != "" && !filepath.IsLocal(filepath.FromSlash(p.path)) {
				return nil, fmt.Errorf("%s: benchmark %s: %s %q is outside the manifest's directory; a manifest names only files next to it (collect again, or fix the path)", name, e.ID, p.field, p.path)
			}
		}
	}
	return &m, nil
}

// scopeName is m.Scope, with the empty scope named.
func (m *Manifest) scopeName() Scope {
	if m.Scope == "" {
		return ScopeAll
	}
	return m.Scope
}

// sourceName is m.Source, with the empty source named.
func (m *Manifest) sourceName() Source {
	if m.Source == "" {
		return SourceProfile
	}
	return m.Source
}

// Costs returns each benchmark's cost in seconds, keyed by id, for the
// entries with a profile: its WallSeconds, or NsPerOp × Iterations when the
// wall time is missing. Entries with neither are left out.
func (m *Manifest) Costs() map[string]float64 {
	costs := map[string]float64{}
	for _, e := range m.Benchmarks {
		if e.Profile == "" {
			continue
		}
		switch {
		case e.WallSeconds > 0:
			costs[e.ID] = e.WallSeconds
		case e.NsPerOp > 0 && e.Iterations > 0:
			costs[e.ID] = e.NsPerOp * float64(e.Iterations) / 1e9
		}
	}
	return costs
}

// Write sorts the entries and writes the manifest to dir/manifest.json
// atomically: to a temporary file in dir, renamed over the old manifest, so
// readers never see a partial file.
func (m *Manifest) Write(dir string) error {
	m.Sort()
	m.Version = SchemaVersion
	switch {
	case m.IsTimed():
		m.Version = SchemaVersionTimed
	case m.IsCover() || m.IsInstructions():
		m.Version = SchemaVersionCover
	}
	if m.Benchmarks == nil {
		m.Benchmarks = []Entry{}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, FileName), append(data, '\n'))
}
