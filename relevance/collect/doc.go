// Package collect discovers a Go module's benchmarks and records one CPU
// profile per benchmark (or function set, or instruction profile: see
// [Config.Source]), for comparison with an application profile.
//
// # Vocabulary
//
// A package with benchmarks is a package whose _test.go files (internal or
// external test package) declare at least one func BenchmarkXxx(*testing.B).
// [Discover] finds them with golang.org/x/tools/go/packages, tests included,
// honoring build tags, so generated _test.go files count too.
//
// A test binary is the output of `go test -c` for one package. Collect builds
// each package's test binary once and runs it many times. Its SHA-256 is
// recorded with every benchmark: two runs used the same code exactly when the
// hashes are equal.
//
// A top-level benchmark is a BenchmarkXxx function, as listed by the test
// binary's -test.list flag. A sub-benchmark is one created with b.Run; its
// full name joins the names of its ancestors with "/", as go test prints it
// (white space rewritten to "_", a repeated name suffixed "#01"). A leaf is a
// benchmark without sub-benchmarks: only leaves report ns/op.
//
// A unit is what Collect profiles in a process of its own: every leaf by
// default, since published suites count each parameterization as a
// benchmark, or every top-level benchmark with [Config.TopLevelOnly].
//
// # Discovery
//
// The top-level benchmarks are what the test binary's -test.list prints.
// A top-level benchmark whose source creates no sub-benchmarks is a leaf
// and runs as a unit at once. Only the others get a discovery run, which
// runs the benchmark with -test.benchtime 1x to find its leaves, setup
// included: those whose source selects the Run method of their *testing.B
// (b.Run), directly or in a function of their test package that they pass
// it to ([Package.Parents], found with go/ast), those the source does not
// declare, and, in a sharded run, all of them. A function of another
// package that receives the *testing.B is not followed: when such a
// benchmark's run shows sub-benchmarks after all, that run's result is
// dropped and the benchmark gets its discovery run, then its leaves.
//
// A discovery run runs the benchmark's setup in full only to learn names,
// so it has a timeout of its own, [Config.DiscoveryTimeout] (2 minutes by
// default); the entry of a benchmark whose discovery run expires says to
// collect it as one unit (TopLevelOnly), skip it, or give discovery
// longer. Its leaves then each run that setup again in a process of their
// own: [SlowParents] finds the benchmarks whose leaves' processes spent far
// longer than their timed loops.
//
// A benchmark's ID is its package import path, ".", and its full name, for
// example "example.com/tinytsdb/storage.BenchmarkEncode/n=100". IDs are
// unique within a module even when two packages declare the same name.
//
// # Output directory
//
// Collect writes into [Config.Out]:
//
//	manifest.json          the [manifest.Manifest], rewritten atomically after every benchmark
//	*.pprof                one CPU profile per benchmark with status ok (see [manifest.ProfileName])
//	*.funcs.json           instead, with Source cover, one function set per benchmark with status ok
//	                       (package covdata; see [manifest.FunctionsName] and "Function sets" below)
//	                       or, with Source instructions, one instruction profile per benchmark (*.pprof,
//	                       pprof files of sample type instructions written by package opprof)
//	logs/*.log             the full output of every benchmark that did not succeed
//	.mbopt-discovery.json  the discovery cache ([CacheFile]; see Resuming)
//	.mbopt.lock            the lock file ([LockFile]; see Concurrency)
//
// Test binaries are built under Out/.bin and removed when Collect returns.
// Every file is written through a temporary file renamed into place (the
// test binary writes its profile to such a file too), so a reader never
// sees a partial file. A run removes the .bin directory and the temporary
// files that a killed run left behind. The manifest's schema is documented
// in package [manifest].
//
// # Processes
//
// Builds, discovery runs and profile runs overlap, [Config.Jobs] processes
// at a time: a benchmark is profiled as soon as its discovery run has found
// it, profile runs before discovery runs before builds, so the first
// results come early and [Config.Progress] totals grow as benchmarks are
// found. While a process runs, [Config.Progress] gets an [EventRunning]
// every [Config.Heartbeat] (30 s by default), saying how long it has run
// and whether it is a discovery run or a measurement.
//
// Every process runs in a process group of its own. The group is killed
// when the process exits (so a benchmark's background processes end with
// it), on timeout (after a SIGQUIT for the goroutine dump) and when the
// context is canceled; on Linux each process also gets SIGKILL when the
// process running Collect dies, even by SIGKILL. A grandchild still running
// at that moment is the one thing that can survive a SIGKILL of the caller;
// see package internal/proc.
//
// # Concurrency
//
// Collect holds an exclusive flock(2) on Out/.mbopt.lock while it runs; a
// second Collect on the same Out, in this process or another, fails at once
// with an error matching [ErrLocked] that names the lock file and the
// holder's PID, host and start time. The kernel releases the lock when the
// holder ends, however it ends, so a killed run never blocks the next one.
// (Systems without flock get no lock.)
//
// # Faults
//
// A package that does not build, or whose test binary cannot list its
// benchmarks, gives one entry per benchmark its source declares, with status
// build-failed (or failed). A benchmark that panics, fails, calls b.Skip,
// hangs past [Config.Timeout] or writes no profile gets an entry with the
// matching status and error; all other benchmarks still run. A benchmark
// whose discovery run already fails is recorded from that run and not run
// again. A sub-benchmark that crashes its discovery run (a panic, an exit,
// a hang) hides the sub-benchmarks after it, so discovery runs again with
// every crashed one skipped (-test.skip), until a run completes; after 16
// such runs for one top-level benchmark, or when the top-level benchmark
// itself crashes, the benchmarks not yet seen cannot be named, and the
// top-level benchmark's existing entries are kept (see Merging).
//
// Collect fails without writing anything when the Config is unusable: the
// error is an [*mbopt.Error] naming the field (Dir
// outside a module, Patterns matching no package, an Out that is a file or
// cannot be created, an invalid Bench or Skip, an Out locked by another
// run). It fails with [ErrNoBenchmarks] when nothing is selected, and when
// its context is canceled.
//
// # Resuming
//
// Collecting again into the same directory reuses the previous entry of a
// benchmark whose test binary hash equals the freshly built binary's hash
// and whose benchtime is unchanged, when either its status is ok and its
// profile file still has the recorded SHA-256 (a replaced or edited profile
// is collected again; so is one of a manifest without profile_sha256), or
// its status is skipped, or it failed or timed out and
// [Config.RetryFailed] is off. The others run again.
//
// The -test.list output and the discovery runs' results are cached in
// Out/.mbopt-discovery.json, keyed by test binary hash (and the top-level
// benchmark and [Config.Skip]): a rerun of an unchanged package starts no
// discovery run, and a rerun of an unchanged, fully collected module starts
// no test binary at all, only go test -c, which the go build cache makes a
// relink. [Config.Force] ignores the previous manifest and the cache;
// [Config.RetryFailed] ignores cached discoveries that recorded a failure.
//
// # Sharding
//
// With [Config.Shard] set to K/N, N machines (the jobs of a CI matrix, the
// pods of a Kubernetes Indexed Job) each collect a share of the suite and
// [Merge] combines their output directories. Each shard builds every
// package and runs every discovery run, as an unsharded run does, so that
// every shard knows every benchmark; then it partitions them by package
// shard's rule (longest-processing-time-first over [Config.ShardCosts], or
// the costs of a whole collection already in Out; by count when no cost is
// known; ties by benchmark ID) and profiles only its share. Its manifest
// holds exactly the share and records the shard, the number of benchmarks
// partitioned and a digest of the partition's inputs (IDs and costs);
// [manifest.Shard.Complete] is set when the run finishes. Shards that found
// different benchmarks, or balanced different costs, have different
// digests, and Merge refuses them rather than lose or double a benchmark:
// give every shard the same previous collection (or the same ShardCosts).
//
// A shard's fixed cost, paid by every shard whatever N, is the builds and
// the discovery runs (one -test.benchtime 1x run per top-level benchmark,
// with or without sub-benchmarks, since every shard must name every
// benchmark before the partition; none for a test binary the discovery
// cache in Out knows).
//
// # Merging
//
// The manifest is merged, never truncated. The previous manifest's entries
// (when it describes the same module) are the starting point; each
// benchmark this run finishes replaces its entry, and the manifest is
// rewritten after every change, so a run killed part-way leaves every
// complete profile listed. A run on a subset (Bench, Skip, fewer Patterns)
// keeps every other entry exactly as it was. At the end of a run that was
// not canceled, an entry is dropped when the run was asked about it and did
// not find it: its package matches Patterns, Bench selects it and Skip does
// not, and it is not below a top-level benchmark whose discovery stopped
// early. The manifest header (Go version, VCS revision, benchtime)
// describes the latest run; each entry keeps its own benchtime and test
// binary hash.
//
// # Function sets
//
// With [Config.Source] manifest.SourceCover, Collect records what each
// benchmark executed rather than where it spent its time: every test binary
// is built with -cover -coverpkg=<main module>/... (one build per package,
// as for profiles), each benchmark runs for [DefaultCoverBenchTime] (one
// iteration) with -test.gocoverdir pointing to a directory of its own, and
// package covdata reads the counters in process and turns them into the
// set of module functions that ran, named as in profiles. A process per
// benchmark is what keeps each benchmark's counters apart: the test binary
// writes them when it exits, and resetting them between the benchmarks of
// one process (runtime/coverage.ClearCounters) would take code of Collect's
// inside the test binary, between the testing package's benchmark runs. Discovery, scheduling, timeouts, fault handling and resuming are
// the same; a reused entry needs its function set file to have the
// recorded SHA-256. A benchmark whose binary instruments nothing of the
// module (a package of tests only) gets an empty set. The manifest is then
// version 2 with source "cover"; an Out holding the other source's
// manifest is refused (Field "Source") unless [Config.Force].
package collect
