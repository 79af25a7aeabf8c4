package collect

import (
	"os"
	"regexp"
	"runtime"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/shard"
)

// DefaultBenchTime is the -test.benchtime used when [Config.BenchTime] is
// empty. Coverage asks only whether a function shows up in a benchmark's
// profile, and CPU profiles sample every 10ms, so a short run can miss
// functions that take a small share of a benchmark's time. The papers this
// tool follows ran each benchmark for 10s, sequentially.
//
// On the example module (testdata/example, 23 benchmarks), two runs of 1s
// against that protocol (BenchmarkCollectVsPaperProtocol, 'MBOPT_BENCH_COLLECT=1
// make bench'; sampling moves these figures between runs): 20–46s instead
// of 6–7.5 minutes; 84–86% of the module functions the 10s profiles contain
// (union over all benchmarks) and 61–68% of all functions; of the
// application profile's 51 module functions, 46–48 covered against 48 at
// 10s. 100ms found 77% of the module functions. Use 10s when rarely
// sampled functions matter.
const DefaultBenchTime = "1s"

// DefaultCoverBenchTime is the -test.benchtime used when [Config.BenchTime]
// is empty and [Config.Source] is manifest.SourceCover: one iteration.
// Coverage counts every function that runs at least once, however
// briefly, so sampling is no reason to run long, and a single iteration
// runs a benchmark's setup once. What a benchmark runs can depend on b.N,
// though, when state builds up over iterations (a buffer flushed when
// full, blocks merged after so many rows, a query list cycled by
// iteration): on the example module (testdata/example),
// httpapi.BenchmarkWrite merges a series' blocks only after about 2,100
// iterations, so at 1x its set lacks storage.(*series).merge and
// encoding.UnmarshalValues, which other benchmarks of the module run.
// Give an iteration count that reaches such state ("5000x") when it
// matters; a duration ("500ms") reaches it on an idle machine only and
// runs the setup once per b.N go test tries.
const DefaultCoverBenchTime = "1x"

// DefaultTimedBenchTime is the -test.benchtime used when [Config.BenchTime]
// is empty with Source cover and Scope timed (the default scope of
// Source cover): the larger of the two iteration counts the timed scope
// compares, the other being [TimedLowBenchTime]. A function of the timed
// loop runs at least 8 more times at 10x than at 2x, so the loop's
// functions all grow, unless one runs only every so many iterations, or
// only once state has built up over more than 10 (see
// DefaultCoverBenchTime): give a larger count for those.
const DefaultTimedBenchTime = "10x"

// TimedLowBenchTime is the smaller of the two iteration counts of Scope
// timed. Both counts are above 1: go test runs a benchmark function at
// b.N = 1 before the count asked for, except at 1x, so the setup of a
// benchmark runs twice at any count above 1 (once with b.Loop) and the
// same number of times in both runs.
const TimedLowBenchTime = "2x"

// DefaultDiscoveryTimeout is the timeout of a discovery run when
// [Config.DiscoveryTimeout] is zero (or Config's Timeout, when shorter).
const DefaultDiscoveryTimeout = 2 * time.Minute

// DefaultTimeout is the per-process timeout used when [Config.Timeout] is
// zero: long enough for any benchmark with the default benchtime and a slow
// setup, short enough that a hung benchmark does not stall a CI job.
const DefaultTimeout = 5 * time.Minute

// Config configures [Discover] and [Collect]. The zero value collects every
// benchmark of the module in the current directory, one profile per
// sub-benchmark, with DefaultBenchTime, except that Collect needs Out.
// Discover and Collect do not modify the Config.
type Config struct {
	// Dir is a directory inside the module; go commands run there and
	// relative patterns are resolved against it. Empty means the current
	// directory.
	Dir string
	// Patterns are the package patterns to search, as for go test. Nil
	// means "./...".
	Patterns []string
	// Bench selects benchmarks by full name, with go test's -bench syntax
	// (see package suite). Empty selects all. With TopLevelOnly, a
	// top-level benchmark is selected when the pattern matches it or could
	// match one of its sub-benchmarks.
	Bench string
	// Skip excludes benchmarks by full name, with go test's -skip syntax
	// (Go 1.20 and later apply it to benchmarks): the pattern is split at
	// "/" like Bench, and a benchmark is skipped, with everything below
	// it, when the pattern matches it entirely. It is passed to the
	// discovery runs as -test.skip, so a skipped benchmark never runs.
	// Empty skips nothing.
	Skip string
	// BenchTime is passed as -test.benchtime ("1s", "100x", ...). Empty
	// means DefaultBenchTime, or with Source manifest.SourceCover
	// DefaultTimedBenchTime (Scope timed) or DefaultCoverBenchTime (Scope
	// all). Scope timed takes an iteration count above
	// TimedLowBenchTime's.
	BenchTime string
	// Source is what Collect records for each benchmark: a CPU profile
	// (manifest.SourceProfile; empty means the same), or the set of
	// functions it executed (manifest.SourceCover): the test binaries are
	// then built with -cover -coverpkg=<main module>/..., each benchmark
	// runs (DefaultCoverBenchTime) into a GOCOVERDIR of its own, and package covdata turns
	// the data into a function set file next to the manifest. A function
	// set is exact where a profile samples, but knows no time and only
	// the main module's functions. Or the instructions each function
	// executed (manifest.SourceInstructions), counted under Valgrind
	// (package measure's Cachegrind runs, at TimedLowBenchTime and at
	// BenchTime, DefaultTimedBenchTime when empty) and credited by source
	// line to the enclosing function (package opprof): a pprof profile per
	// benchmark, exact and weighted, that the analysis reads like a CPU
	// profile; Collect fails with measure.ErrNoValgrind when valgrind is
	// not installed. An Out holding another source's collection is
	// refused unless Force (sources never mix).
	Source manifest.Source
	// Scope says what part of each benchmark's run its function set
	// counts (Source cover): manifest.ScopeTimed records the functions
	// whose coverage counters grow between a run at TimedLowBenchTime and
	// a run at BenchTime (the test binaries are built with
	// -covermode=atomic), the timed loop without the setup before
	// b.ResetTimer or the validation after b.StopTimer; manifest.ScopeAll
	// records all that one run at BenchTime executed, as a CPU profile of
	// the run would and as the papers count. With Source instructions,
	// timed records each function's instructions per operation from the
	// difference of the runs at TimedLowBenchTime and BenchTime, the
	// functions that add at least half an instruction per operation; all
	// records the run at BenchTime's counts as they are. A function that
	// runs a constant number of times per benchmark rather than per
	// iteration counts as setup, even inside the loop. Empty means timed
	// with Source cover and instructions, all with Source profile, which
	// has no other scope. An Out holding the other scope's collection is
	// refused unless Force.
	Scope manifest.Scope
	// Timeout bounds each test binary process (discovery runs and profile
	// runs). On expiry the process gets SIGQUIT, so its goroutine dump
	// lands in the log, and its whole process group is killed shortly
	// after. Zero means DefaultTimeout.
	Timeout time.Duration
	// Jobs is the number of benchmarks (and builds) run in parallel. Zero
	// or negative means runtime.GOMAXPROCS(0). Coverage only needs each
	// function to be sampled, not a quiet machine, so parallel runs are
	// fine; ns/op values are then only indicative.
	Jobs int
	// TopLevelOnly profiles each top-level benchmark as one unit, all its
	// sub-benchmarks included, instead of each leaf on its own.
	TopLevelOnly bool
	// Tags is the -tags value for go list and go test -c; empty means none.
	Tags string
	// Mod is the -mod value (mod, readonly or vendor); empty lets the go
	// command choose, which means vendor when the module has a vendor
	// directory.
	Mod string
	// Out is the output directory; see the package documentation. A
	// relative Out is relative to the current directory, not to Dir.
	// Collect creates it when needed. Only one Collect may use an Out at
	// a time; Collect takes a lock to make sure (see LockFile).
	Out string
	// Force re-collects every benchmark instead of reusing complete
	// profiles from an earlier run into Out, and ignores the discovery
	// cache.
	Force bool
	// RetryFailed runs again the benchmarks that an earlier run into Out
	// recorded as failed or timed out with the same test binary and
	// benchtime. Without it such a failure is kept as it is: the same
	// binary fails the same way, and a hung benchmark would cost the
	// whole Timeout again.
	RetryFailed bool
	// Shard, when enabled (Count > 0), collects one shard's share of the
	// selected benchmarks: every shard builds and discovers everything,
	// then all benchmarks found are partitioned over Shard.Count shards by
	// package shard's rule, balancing ShardCosts, and only the share of
	// shard Shard.Index is profiled and kept in the manifest, which
	// records the shard (see "Sharding" in the package documentation).
	// The zero value collects everything.
	Shard shard.Spec
	// ShardCosts are the costs, in seconds by benchmark ID (as
	// manifest.Manifest.Costs returns them), that the partition balances.
	// Nil means the costs recorded by the manifest in Out, when it is a
	// whole collection (not a shard) of the same module; with neither,
	// the partition balances counts. Every shard of a partition must see
	// the same costs. Set only with Shard.
	ShardCosts map[string]float64
	// Env holds extra environment variables ("KEY=value") for the go
	// command and the test binaries, added to the current environment.
	Env []string
	// GoCmd is the go command to run. Empty means "go".
	GoCmd string
	// Heartbeat is the interval of EventRunning: while a test binary
	// process runs, Progress gets an EventRunning every Heartbeat, so that
	// a benchmark with a long setup does not leave the collection silent.
	// Zero means DefaultHeartbeat; negative means none.
	Heartbeat time.Duration
	// DiscoveryTimeout bounds each discovery run (the -test.benchtime 1x
	// run of a top-level benchmark that creates sub-benchmarks): shorter
	// than Timeout by default, since discovery runs the benchmark's setup
	// only to learn names, and a benchmark whose setup takes minutes is
	// better collected as one unit (TopLevelOnly) or skipped (Skip); the
	// error of one that expires says so. Zero means
	// DefaultDiscoveryTimeout; Timeout bounds it either way.
	DiscoveryTimeout time.Duration
	// Progress, when not nil, receives an Event at each step. Calls are
	// serialized (never concurrent) and in causal order; Progress must
	// return quickly, as workers wait for it.
	Progress func(Event)
}

// The fields of [Config] (and [CollectionError]) that input errors name
// (mbopt.Field paths).
const (
	FieldBench            mbopt.Field = "Bench"
	FieldBenchTime        mbopt.Field = "BenchTime"
	FieldDir              mbopt.Field = "Dir"
	FieldDiscoveryTimeout mbopt.Field = "DiscoveryTimeout"
	FieldJobs             mbopt.Field = "Jobs"
	FieldMod              mbopt.Field = "Mod"
	FieldOut              mbopt.Field = "Out"
	FieldPatterns         mbopt.Field = "Patterns"
	FieldScope            mbopt.Field = "Scope"
	FieldShard            mbopt.Field = "Shard"
	FieldShardCosts       mbopt.Field = "ShardCosts"
	FieldSkip             mbopt.Field = "Skip"
	FieldStrict           mbopt.Field = "Strict"
	FieldSource           mbopt.Field = "Source"
	FieldTimeout          mbopt.Field = "Timeout"
)

// EffectiveBenchTime returns the -test.benchtime the collection runs at
// (and its manifest records): BenchTime when set, else the Source's
// default, DefaultBenchTimeOf.
func (c *Config) EffectiveBenchTime() string {
	if c.BenchTime != "" {
		return c.BenchTime
	}
	return DefaultBenchTimeOf(c.Source, c.Scope)
}

// DefaultBenchTimeOf returns the benchtime a Config with Source src and
// Scope scope and no BenchTime runs benchmarks for: DefaultBenchTime for
// profiles, DefaultTimedBenchTime for function sets of the timed scope
// (src's default) and for instruction profiles, DefaultCoverBenchTime for
// function sets of scope all.
func DefaultBenchTimeOf(src manifest.Source, scope manifest.Scope) string {
	c := Config{Source: src, Scope: scope}
	switch {
	case c.cover() && c.timed(), c.instructions():
		return DefaultTimedBenchTime
	case c.cover():
		return DefaultCoverBenchTime
	}
	return DefaultBenchTime
}

// cover reports whether c collects function sets.
func (c *Config) cover() bool { return c.Source == manifest.SourceCover }

// instructions reports whether c collects instruction profiles.
func (c *Config) instructions() bool { return c.Source == manifest.SourceInstructions }

// scope returns Scope, or its default for Source when empty.
func (c *Config) scope() manifest.Scope {
	switch {
	case c.Scope != "":
		return c.Scope
	case c.cover(), c.instructions():
		return manifest.ScopeTimed
	}
	return manifest.ScopeAll
}

// timed reports whether c records timed loops.
func (c *Config) timed() bool { return c.scope() == manifest.ScopeTimed }

func (c *Config) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

func (c *Config) heartbeat() time.Duration {
	if c.Heartbeat == 0 {
		return DefaultHeartbeat
	}
	return c.Heartbeat
}

func (c *Config) discoveryTimeout() time.Duration {
	if c.DiscoveryTimeout > 0 {
		return min(c.DiscoveryTimeout, c.timeout())
	}
	return min(DefaultDiscoveryTimeout, c.timeout())
}

func (c *Config) jobs() int {
	if c.Jobs <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return c.Jobs
}

func (c *Config) goCmd() string {
	if c.GoCmd == "" {
		return "go"
	}
	return c.GoCmd
}

func (c *Config) patterns() []string {
	if len(c.Patterns) == 0 {
		return []string{"./..."}
	}
	return c.Patterns
}

func (c *Config) env() []string {
	return append(os.Environ(), c.Env...)
}

// buildFlags returns the flags shared by go list and go test -c.
func (c *Config) buildFlags() []string {
	var f []string
	if c.Tags != "" {
		f = append(f, "-tags="+c.Tags)
	}
	if c.Mod != "" {
		f = append(f, "-mod="+c.Mod)
	}
	return f
}

// An EventKind names a step of [Collect].
type EventKind int

// The kinds of [Event]: first those of Collect's phases, in the order the
// phases produce them, then those that come during a phase.
const (
	// EventBuild: a package's test binary was built and its benchmarks
	// listed, or that failed (Err). Done and Total count packages.
	EventBuild EventKind = iota
	// EventDiscover: a top-level benchmark's sub-benchmarks are known,
	// from discovery runs or, when Reused, from the discovery cache.
	// Done and Total count top-level benchmarks.
	EventDiscover
	// EventStart: a benchmark's profile run started. Done and Total count
	// benchmarks; Done is the number finished so far.
	EventStart
	// EventFinish: a benchmark finished, or was reused from an earlier run
	// (Reused). Entry holds the result. Done and Total count benchmarks.
	EventFinish
	// EventRunning: a test binary process is still running, every
	// Config.Heartbeat: Phase says whether it is a discovery run or a
	// measurement, Elapsed how long it has run. Done and Total are zero.
	EventRunning
	// EventDiscoverStart: a discovery run of a top-level benchmark
	// started (it comes before the benchmark's EventDiscover, after the
	// EventBuild of its package). Done and Total are zero.
	EventDiscoverStart
)

// An Event reports progress of [Collect] to [Config.Progress].
//
// The phases overlap: a benchmark is profiled as soon as it is discovered,
// while other packages still build. Total is what is known when the event
// is sent, so it grows until the last package is built and discovered.
type Event struct {
	// Kind says what happened; it decides which other fields are set.
	Kind EventKind
	// Package is the import path of the package concerned.
	Package string
	// Name is the benchmark's full name; empty for EventBuild.
	Name string
	// Entry is the benchmark's manifest entry (EventFinish only).
	Entry *manifest.Entry
	// Reused reports that Entry comes from an earlier run (EventFinish),
	// or that the sub-benchmarks come from the discovery cache
	// (EventDiscover).
	Reused bool
	// Err is the build or listing failure (EventBuild only).
	Err error
	// Done and Total count progress within the event's phase.
	Done, Total int
	// Phase is the kind of process that is still running (EventRunning
	// only).
	Phase Phase
	// Elapsed is how long that process has run (EventRunning only).
	Elapsed time.Duration
}

// benchTimeRE matches the iteration counts -test.benchtime accepts.
var benchTimeRE = regexp.MustCompile(`^[1-9][0-9]*x$`)

// Check reports the first field of cfg that no collection can use, as an
// [*mbopt.Error] naming it, without running anything: an empty Out, an
// invalid Bench or Skip, a BenchTime that is neither a positive duration
// nor an iteration count, an unknown Source, Scope or Mod, a negative
// Timeout, DiscoveryTimeout or Jobs (zero is the default). [Collect] checks
// it first (and then Dir, with the go command); a front end can check it
// before other work.
func (cfg Config) Check() error {
	if cfg.Out == "" {
		return mbopt.Errorf("%s must name a directory", FieldOut)
	}
	if _, err := benchname.CompileFilter(cfg.Bench); err != nil {
		return FieldBench.Errorf("%w", err)
	}
	if _, err := benchname.CompileFilter(cfg.Skip); err != nil {
		return FieldSkip.Errorf("%w", err)
	}
	if bt := cfg.BenchTime; bt != "" && !benchTimeRE.MatchString(bt) {
		if d, err := time.ParseDuration(bt); err != nil || d <= 0 {
			return FieldBenchTime.Errorf("invalid value %q: want a positive duration such as 1s or an iteration count such as 100x", bt)
		}
	}
	switch cfg.Source {
	case "", manifest.SourceProfile, manifest.SourceCover, manifest.SourceInstructions:
	default:
		return FieldSource.Errorf("unknown source %q: valid values are {%s|%s|%s}", cfg.Source, manifest.SourceProfile, manifest.SourceCover, manifest.SourceInstructions)
	}
	if err := checkScope(cfg); err != nil {
		return err
	}
	switch {
	case cfg.Timeout < 0:
		return mbopt.Errorf("%s must be positive, not %v", FieldTimeout, cfg.Timeout)
	case cfg.DiscoveryTimeout < 0:
		return mbopt.Errorf("%s must be positive, not %v", FieldDiscoveryTimeout, cfg.DiscoveryTimeout)
	case cfg.Jobs < 0:
		return mbopt.Errorf("%s must be 0 (one per CPU) or a positive count, not %d", FieldJobs, cfg.Jobs)
	}
	switch cfg.Mod {
	case "", "mod", "readonly", "vendor":
	default:
		return FieldMod.Errorf("invalid value %q: valid values are {mod|readonly|vendor}", cfg.Mod)
	}
	return nil
}
