package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/relevance/shard"
)

// A Plan says what [Run] measures: the revisions, the selection of
// benchmarks, the schedule, the build and the shard of this machine. Its
// field names are those of compare.Options, whose errors name them.
type Plan struct {
	// The revisions.

	// Dir is a directory in the module to compare, inside a git work
	// tree; "" means the current directory.
	Dir string
	// Base is the base revision (any git revision). "" means the
	// merge-base of Head with the default branch (origin/HEAD, else main,
	// else master); a note says which.
	Base string
	// Head is the head revision; "" means HEAD, and [Worktree] the work
	// tree with its uncommitted changes.
	Head string

	// The selection.

	// Benchmarks are the benchmarks to measure, such as the optimized
	// suite. When empty, Bench and Packages choose them.
	Benchmarks []Benchmark
	// Bench is a go test -bench pattern: every benchmark it selects in
	// Packages, in either revision, is measured. "" means all.
	Bench string
	// Packages are package patterns for Bench, relative to the module
	// root; nil means "./...".
	Packages []string
	// Planned, when set, is called once the test binaries are built and
	// the benchmarks chosen (with Bench, before a shard takes its share of
	// them), before anything is measured, with the top-level benchmarks
	// chosen; an error it returns ends Run.
	Planned func(tops []Benchmark) error

	// The schedule.

	// Schedule is the RMIT schedule; its zero fields are not defaults:
	// the caller fills them in (compare.Settings does).
	Schedule Schedule

	// The build.

	// BuildFlags are extra go test -c flags, such as "-tags", "x".
	BuildFlags []string
	// HeadFiles replaces files of the head's module in its build only
	// (go build -overlay): module-relative slash paths to their new
	// content. The head is then never taken for the base's build and its
	// binaries are not cached.
	HeadFiles map[string][]byte
	// Env holds extra environment variables ("KEY=value") for the go
	// command and the test binaries.
	Env []string
	// GoCmd is the go command; "" means "go".
	GoCmd string
	// Timeout bounds each test binary process; 0 means 10 minutes or,
	// when longer, ten times the expected time of the process.
	Timeout time.Duration
	// CacheDir holds test binaries built from commits; "" means the
	// "mbopt/testbin" directory under os.UserCacheDir, and "off" disables
	// the cache.
	CacheDir string

	// The shard.

	// Shard, when enabled, runs only shard Shard.Index of Shard.Count of
	// the benchmarks (all their trials, both versions on this machine),
	// chosen by package shard's longest-first partition over ShardCosts.
	Shard shard.Spec
	// TrialShard, when enabled, runs every benchmark but only the trials
	// t (from 1) with (t − 1) mod TrialShard.Count == TrialShard.Index.
	TrialShard shard.Spec
	// ShardCosts are the benchmarks' costs (top-level id → seconds) that
	// balance Shard; nil balances by count.
	ShardCosts map[string]float64

	// The output.

	// Out is the output directory of the raw result files; "" means a
	// directory of the comparison's own under .mbopt/compare in the module
	// root, named by the start time (UTC) and the two short commits.
	Out string
	// Progress, when set, is called with each step, from one goroutine
	// at a time.
	Progress func(Event)
}

// The fields of [Plan] that input errors name (mbopt.Field paths).
const (
	FieldBase           mbopt.Field = "Base"
	FieldBench          mbopt.Field = "Bench"
	FieldBenchmarks     mbopt.Field = "Benchmarks"
	FieldDir            mbopt.Field = "Dir"
	FieldHead           mbopt.Field = "Head"
	FieldOut            mbopt.Field = "Out"
	FieldPackages       mbopt.Field = "Packages"
	FieldSettingsMetric mbopt.Field = "Settings.Metric"
	FieldShard          mbopt.Field = "Shard"
	FieldTrialShard     mbopt.Field = "TrialShard"
)

// A Schedule is the RMIT schedule of a [Plan]: Trials × Runs × Count
// measurements per benchmark and version, in an order drawn from Seed.
// compare.Settings documents each field.
type Schedule struct {
	// Trials, Runs and Count size the schedule (all at least 1).
	Trials, Runs, Count int
	// BenchTime is the -test.benchtime of each measurement ("1s", "100x").
	BenchTime string
	// Benchmem adds B/op and allocs/op.
	Benchmem bool
	// Seed seeds the order of the schedule.
	Seed uint64
	// UntilStable, when positive, stops scheduling a benchmark once its
	// interval, at Confidence from Resamples resamples, is narrower.
	UntilStable float64
	// TargetMDE, when positive, is the minimum detectable effect each
	// benchmark is measured to (counting metrics only): a benchmark
	// stops once every one of its results has both versions' minimum
	// measurements (benchstats.MinSamples, after 2 trials) and an MDE at
	// most this; one that has not reached it after Trials gets more
	// trials, up to ExtraTrialsFactor × Trials in all and within Budget.
	TargetMDE float64
	// Jobs is how many measurements of the instructions metric run at the
	// same time, each in its own processes (0 means one per CPU): a count
	// does not depend on what else the machine runs, so the units of a run
	// are measured in parallel and recorded in their random order. The
	// time and cpu metrics keep their order.
	Jobs int
	// Confidence and Resamples are those of UntilStable's interval.
	Confidence float64
	// Resamples is the number of bootstrap resamples of that interval.
	Resamples int
	// Budget, when positive, is the wall-clock time the schedule is fitted
	// into (Raw.Schedule says what was chosen).
	Budget time.Duration
	// Metric is what is measured per operation ("": measure.Time).
	Metric measure.Metric
	// Duet is "" or DuetSequential, or DuetParallel.
	Duet string
}

// The values of Schedule.Duet.
const (
	DuetSequential = "sequential"
	DuetParallel   = "parallel"
)

// Counting reports whether the schedule measures with a counting metric
// (CPU time or instructions: two processes per measurement) rather than
// the benchmark's own time.
func (s Schedule) Counting() bool {
	return s.Metric == measure.CPU || s.Metric == measure.Instructions
}

// ExtraTrialsFactor bounds the trials Schedule.TargetMDE adds: at most
// this many times Schedule.Trials in all (and within Schedule.Budget).
const ExtraTrialsFactor = 4

// parallel reports whether the measurements of a run can run at the same
// time (the instructions metric), and how many at once.
func (s Schedule) parallel() (int, bool) {
	if s.Metric != measure.Instructions {
		return 1, false
	}
	if s.Jobs > 0 {
		return s.Jobs, true
	}
	return runtime.NumCPU(), true
}

// Unit returns the unit of the metric's results, such as "sec/op".
func (s Schedule) Unit() string {
	if s.Metric == "" {
		return measure.Time.Unit()
	}
	return s.Metric.Unit()
}

// A Benchmark names one benchmark by its package and full name.
type Benchmark struct {
	// Package is the import path of the benchmark's package.
	Package string
	// Name is the full name as go test prints it, such as
	// "BenchmarkQuery/sum(cpu)".
	Name string
}

// Worktree is the [Plan.Head] value that measures the work tree with its
// uncommitted changes (tracked and untracked, not ignored files).
const Worktree = "worktree"

func (p *Plan) goCmd() string {
	if p.GoCmd == "" {
		return "go"
	}
	return p.GoCmd
}

func (p *Plan) env() []string { return append(os.Environ(), p.Env...) }

func (p *Plan) cacheDir() string {
	switch p.CacheDir {
	case "off":
		return ""
	case "":
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(d, "mbopt", "testbin")
	}
	return p.CacheDir
}

// ParseBenchTime parses a -test.benchtime value: a duration ("1s") or an
// iteration count ("100x").
func ParseBenchTime(s string) (d time.Duration, iters int, err error) {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		if iters, err = strconv.Atoi(n); err != nil || iters < 1 {
			return 0, 0, fmt.Errorf("BenchTime %q: want a duration such as 1s or an iteration count such as 100x", s)
		}
		return 0, iters, nil
	}
	if d, err = time.ParseDuration(s); err != nil || d <= 0 {
		return 0, 0, fmt.Errorf("BenchTime %q: want a duration such as 1s or an iteration count such as 100x", s)
	}
	return d, 0, nil
}

// Hash is FNV-1a, to derive a per-benchmark seed from a schedule's:
// Seed ^ Hash(id) for the random draws of one benchmark alone.
func Hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
