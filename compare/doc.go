// Package compare runs the benchmarks of two revisions of a Go module
// against each other and says, with sound statistics, whether the head is
// slower or faster than the base, ranked by what that means for the
// application.
//
// The method is the second half of Grambow et al., "Using Microbenchmark
// Suites to Detect Application Performance Changes" (IEEE TCC 2022),
// sections 3.3 and 3.4: randomized multiple interleaved trials (RMIT),
// the relative change of the medians, a hierarchical bootstrap confidence
// interval (package benchstats), definite and potential changes, and the
// reference impact of each benchmark.
//
// [Run] is a composition of steps: package compare/engine measures
// (engine.Run: worktrees, builds, the schedule, the raw files) and keeps
// the test binaries; compare judges the raw files ([Judge]: verdicts,
// false-discovery control, failures), then finds the culprit functions of
// the changes on the kept binaries ([Explain]) and confirms the
// application impact ([ConfirmImpact]). A caller that needs only the
// verdicts, such as a bisect's steps, runs engine.Run and [Judge].
//
// # Revisions
//
// [Run] compares Options.Base with Options.Head in the git repository that
// holds Options.Dir. The base defaults to the merge-base of the head with
// the default branch (origin/HEAD, else main, else master: package
// internal/gitrev's rule), the head to HEAD; [Worktree] compares the work
// tree with its uncommitted changes (tracked files and untracked ones that
// are not ignored, copied over a worktree of HEAD). Each revision is
// checked out with git worktree add --detach into a temporary directory
// (see [TempPrefix]); the user's tree is never touched. Base and head that
// are the same commit share one worktree and one set of test binaries (an
// A/A comparison).
//
// # Test binaries
//
// Each package's test binary is built once per revision (go test -c) and
// listed once (-test.list). Binaries built from a commit are cached in
// Options.CacheDir (by default os.UserCacheDir()/mbopt/testbin), named by
// a hash of the commit, the module's place in the repository, the package,
// the Go version (go env GOVERSION in the worktree), the build flags, the
// extra environment and GOFLAGS, GOOS, GOARCH and CGO_ENABLED; binaries of
// a dirty worktree are built in the temporary directory and never cached.
// With the instructions metric the binaries are built with a go build
// -overlay that fixes the runtime's random seed (map layouts, map
// iteration, math/rand/v2's global source; docs/metrics.md, "The
// runtime's seed"), merged with Options.HeadFiles and any -overlay among
// the build flags, and their cache name includes it; each run's processes
// get the seed of that run (from Settings.Seed, the trial and the run),
// the same in both versions, and each run another.
// A package that does not build is a [BuildFailed] result, not an error; a
// package missing from a revision makes its benchmarks [Added] or
// [Removed]. A selection that matches no benchmark in either revision is an
// [mbopt.Error] on Bench whether or not a package failed to build (the
// error names those that did not: their benchmarks are unknown).
//
// # The schedule
//
// Options.Benchmarks names benchmarks by package and full name (the
// optimized suite); without them, Options.Bench selects the top-level
// benchmarks of Options.Packages (with their sub-benchmarks as the pattern
// selects them). Each selected benchmark is a unit that one process runs:
// -test.run ^$ -test.bench <exact anchored pattern> -test.count Count
// -test.benchtime BenchTime [-test.benchmem] -test.v -test.paniconexit0.
// For each of Trials trials and Runs runs within it, the units are
// shuffled, and each unit's base and head processes run back to back in a
// random order; the random source is seeded with Settings.Seed.
//
// A process's output counts only for the unit's own benchmarks (its
// top-level benchmark, known from -test.list, and the sub-benchmarks under
// it): lines a benchmark prints that look like other benchmarks' results,
// or are malformed, are ignored and a report note names them. A
// sub-benchmark that fails (b.Fatal), panics, or ends the process
// (os.Exit, 0 included: -test.paniconexit0 makes it a panic; -test.v names
// the sub-benchmark that was running) is [Failed] alone, with why; the
// sub-benchmarks that finished are compared, and those its end kept from
// running in a version, measured in the other, are Failed there too
// ("did not run"). A unit that fails as a whole (a timeout, a failure in
// its own code) in a version is not run there again and its results are
// Failed. A benchmark that skips itself (b.Skip: "--- SKIP:", with the
// lines it logged) is [Skipped] in that version, with its message, under
// every metric; its siblings go on, and a unit that skips as a whole is
// not run there again. Every selected benchmark ends
// compared, failed, skipped, added or removed; the counting metrics
// follow the same rules.
//
// Settings.Budget fits the schedule into a wall-clock time: it estimates a
// process as Count × BenchTime × 1.2 (the b.N ramp-up) plus the overhead
// measured by the binary's -test.list run (an iteration-count BenchTime,
// "100x", counts the overhead only), keeps as many trials as it can (never
// fewer than 2), then the most measurements per trial, preferring runs; a
// report note says what it chose. Settings.UntilStable stops scheduling a
// unit after a trial (from the second on) when the sec/op interval of every
// benchmark it measured is narrower than UntilStable; Report.Saved
// estimates the time saved from the unit's measured time per trial.
//
// # Raw result files
//
// The measurements go to [BaseFile] and [HeadFile] in Options.Out, written
// atomically at the end, in the Go benchmark format (benchfmt.Writer): the
// test binary's configuration lines (goos, goarch, pkg, cpu) and benchmark
// lines, after a comment line
//
//	# mbopt-compare side=base commit=<hash> trial=1 run=2
//
// before each process's results. The provenance is a comment and not
// configuration lines because benchstat splits its tables by every
// configuration key: with "trial:" and "run:" lines, benchstat base.txt
// head.txt would print one table per trial and run, and with a "revision:"
// line that differs between the files it would compare nothing. So
// benchstat reads the files as they are, and [Analyze] reads the comments
// back. The report is computed from the files, not from memory, so the
// files of several machines (or runs) can be analysed together.
//
// # Statistics and order
//
// For each benchmark and unit measured in both versions, [Analyze] computes
// the relative change of the medians with a hierarchical bootstrap
// interval (benchstats.Compare with Settings.Resamples, Confidence and a
// seed derived from Settings.Seed and the benchmark id, so adding a
// benchmark does not change another's interval), classifies it against
// Settings.Threshold (benchstats.Classify; the unit says which direction
// is better) and adds the U-test's p-value. [SortResults] orders the
// results; [Report.Gate] says which fail a CI gate.
package compare
