package engine

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/relevance/shard"
)

// Raw is what [Run] measured: the raw result files and what they cannot
// hold (the packages that did not build, the benchmarks that failed, each
// benchmark's caveats), with the worktrees and test binaries kept for the
// steps that run after it, until Close. Its methods other than Close need
// a Raw that Run made.
type Raw struct {
	// Module is the module path.
	Module string
	// Base and Head are the revisions measured.
	Base, Head Revision
	// Same is set when base and head are the same tree (an A/A
	// comparison): one build served both.
	Same bool
	// GoVersion is the head's go env GOVERSION.
	GoVersion string
	// Out is the absolute output directory.
	Out string
	// Files are the raw files in Out, by [Side]: [BaseFile] and
	// [HeadFile].
	Files [2]string
	// Written are the size and SHA-256 of Files as written, for a shard's
	// record; zero when the comparison is not sharded.
	Written [2]shard.File
	// Schedule is the schedule as run: Plan.Schedule with the Trials,
	// Runs and Count a budget chose.
	Schedule Schedule
	// Trials are the trials (from 1) this machine ran: all of
	// Schedule.Trials and those Schedule.TargetMDE added, or a trial
	// shard's share.
	Trials []int
	// Share is this machine's share of a sharded comparison; nil when not
	// sharded.
	Share *Share
	// Packages are the packages built, each with its build failure in
	// each version by [Side] ("" when it built, or is not in the version).
	Packages map[string][2]string
	// Units are the benchmarks each process ran, in the order chosen.
	Units []Unit
	// Caveats are the reasons a benchmark's result deserves less trust,
	// by benchmark id, in the order found.
	Caveats map[string][]string
	// Notes are what a report should say about the run, in order; the
	// measurements taken after Run (MeasureBenchmark) add theirs, and the
	// caller may add its own.
	Notes []string
	// Saved estimates the time Schedule.UntilStable saved.
	Saved time.Duration
	// Stopped counts the units Schedule.UntilStable stopped early.
	Stopped int

	r  *runner
	ws *workspace
}

// A Unit is what one process ran: one benchmark (with its
// sub-benchmarks) of one package, and how it went in each version, by
// [Side].
type Unit struct {
	// Package is the import path of the benchmark's package, and Name its
	// name (a top-level benchmark, or a full name Plan.Benchmarks gave).
	Package, Name string
	// Requested is set when Plan.Benchmarks named it.
	Requested bool
	// On says whether the version's test binary has it.
	On [2]bool
	// Failed is why the unit as a whole failed in a version ("" when it
	// did not): it timed out, or failed in its own code.
	Failed [2]string
	// SubFailed are the sub-benchmarks that failed in a version, by full
	// name, with why (the first time); the unit's other benchmarks went
	// on.
	SubFailed [2]map[string]string
	// Ended is the sub-benchmark whose failure ended the unit's process in
	// a version before the benchmarks after it ran (the first time).
	Ended [2]string
	// NotRun are the sub-benchmarks that did not run in a version because
	// a process there ended before them (see Ended), by full name, with
	// the sub-benchmark it ended in. Only names a process of either
	// version started are known (a process starts its benchmarks in the
	// order of their code): those after the last benchmark the process
	// that ended started; a benchmark the other version has before that
	// point is added or removed, not here. nil when none is known.
	NotRun [2]map[string]string
	// Skipped are the benchmarks (the unit's own, or sub-benchmarks) that
	// skipped themselves (b.Skip) in a version, by full name, with what
	// they logged (the first time; [SkippedNoMessage] when they logged
	// nothing). They ran, and gave no result by their own choice; the
	// unit's other benchmarks went on.
	Skipped [2]map[string]string
	// IDs are the benchmark ids it measured in either version, in the
	// order first measured.
	IDs []string
}

// SkippedNoMessage is the message of a benchmark that skipped itself
// without logging anything (b.SkipNow), in [Unit].Skipped.
const SkippedNoMessage = "skipped without a message (b.SkipNow)"

// result fills in raw from the finished run.
func (r *runner) result(raw *Raw, out string, share *Share) {
	raw.Module, raw.Base, raw.Head, raw.Same = r.mod.path, r.vers[Base].rev, r.vers[Head].rev, r.same
	raw.GoVersion, raw.Out, raw.Schedule, raw.Share = r.vers[Head].govers, out, r.s, share
	raw.Trials = trialsOf(max(r.s.Trials, r.ran), r.plan.TrialShard)
	if r.plan.Shard.Enabled() || r.plan.TrialShard.Enabled() {
		raw.Written = [2]shard.File{shard.FileOf(r.rws[Base].buf.Bytes()), shard.FileOf(r.rws[Head].buf.Bytes())}
	}
	raw.Packages = map[string][2]string{}
	for p, pb := range r.builds {
		raw.Packages[p] = [2]string{pb[Base].err, pb[Head].err}
	}
	for _, u := range r.units {
		raw.Units = append(raw.Units, Unit{Package: u.pkg, Name: u.name, Requested: u.requested, On: u.on,
			Failed: u.failed, SubFailed: u.subFailed, Ended: u.ended, NotRun: [2]map[string]string{u.notRun(Base), u.notRun(Head)},
			Skipped: u.skipped, IDs: r.ids(u)})
		if u.stopped {
			raw.Stopped++
		}
	}
	raw.Caveats, raw.Saved = r.caveats, r.saved
}

// Close removes the worktrees and the test binaries that are not cached.
// It is safe to call more than once, and on a Raw that [Run] did not make
// (which keeps nothing).
func (raw *Raw) Close() {
	if raw.ws != nil {
		raw.ws.remove(context.Background())
	}
}

// PackageNames returns the keys of Packages, sorted.
func (raw *Raw) PackageNames() []string { return slices.Sorted(maps.Keys(raw.Packages)) }

// A Binary is one version's test binary of a benchmark's package.
type Binary struct {
	// Path is the test binary; Dir is its package's directory in the
	// version's worktree, where it runs.
	Path, Dir string
}

// Binaries returns the test binaries, by [Side], of the unit that ran the
// benchmark name (a full name) of package pkg, and whether one did.
func (raw *Raw) Binaries(pkg, name string) ([2]Binary, bool) {
	r := raw.r
	for _, u := range r.units {
		if u.pkg == pkg && (name == u.name || strings.HasPrefix(name, u.name+"/")) {
			var bs [2]Binary
			for side, b := range r.builds[u.pkg] {
				bs[side] = Binary{Path: b.bin, Dir: b.dir}
			}
			return bs, true
		}
	}
	return [2]Binary{}, false
}

// FuncProfiles returns, with the instructions metric, the per-function
// profiles of benchmark id's measurements in a version, in the
// measurements' hierarchy (trial → run → measurement, without empty
// trials and runs), and the last measurement's profile per source line;
// an error says why there are none.
func (raw *Raw) FuncProfiles(side Side, id string) (culprit.Measurements, *culprit.Profile, error) {
	return raw.r.cnt.funcs.kept(side, id)
}

// Env returns the environment of the go command and the test binaries:
// the process's with Plan.Env added.
func (raw *Raw) Env() []string { return raw.r.plan.env() }

// Timeout returns the bound of each test binary process.
func (raw *Raw) Timeout() time.Duration { return raw.r.timeout }

// Dir returns the module root in a version's worktree.
func (raw *Raw) Dir(side Side) string { return raw.r.vers[side].dir }
