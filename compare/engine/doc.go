// Package engine runs the benchmarks of two revisions of a Go module
// against each other and writes what they measured: the engine of
// package compare, which judges the results.
//
// [Run] takes a [Plan] — the revisions, the selection of benchmarks, the
// RMIT schedule, the build and this machine's shard — checks each revision
// out with git worktree into a temporary directory, builds each package's
// test binary once per revision (cached by commit), runs the schedule
// (randomized multiple interleaved trials: for each trial and run the
// benchmarks in a random order, each benchmark's two versions back to back
// in a random order) and writes the raw result files [BaseFile] and
// [HeadFile] in the Go benchmark format. It returns a [Raw]: the files,
// what they cannot hold (packages that did not build, benchmarks that
// failed, caveats, notes), and the worktrees and test binaries, kept until
// [Raw.Close] for the steps that run on them after the verdicts (culprit
// profiles: [Raw.Binaries], [Raw.FuncProfiles]; a confirming workload:
// [Raw.MeasureBenchmark], [Raw.MeasureCommand]).
//
// [Data] reads raw result files back: per version, benchmark and unit, the
// measurements in the RMIT hierarchy (trial → run → measurement), which
// package compare's Analyze judges. Package compare's documentation
// describes the method, the test binaries' cache and the files' format in
// full.
package engine
