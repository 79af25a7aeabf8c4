// Package collect discovers a Go module's benchmarks and records one CPU
// profile per benchmark, for comparison with an application profile.
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
// benchmark, or every top-level benchmark with [Config.TopLevelOnly]. To find
// the leaves, Collect first runs each top-level benchmark once with
// -test.benchtime 1x (the discovery run).
//
// A benchmark's ID is its package import path, ".", and its full name, for
// example "example.com/tinytsdb/storage.BenchmarkEncode/n=100". IDs are
// unique within a module even when two packages declare the same name.
//
// # Output directory
//
// Collect writes into [Config.Out]:
//
//	manifest.json   the [manifest.Manifest], rewritten atomically after every benchmark
//	*.pprof         one CPU profile per benchmark with status ok (see [manifest.ProfileName])
//	logs/*.log      the full output of every benchmark that did not succeed
//
// Test binaries are built under Out/.bin and removed when Collect returns.
//
// The manifest's schema is documented in package [manifest].
//
// # Faults
//
// A package that does not build, or whose test binary cannot list its
// benchmarks, gives one entry per benchmark its source declares, with status
// build-failed (or failed). A benchmark that panics, fails, calls b.Skip,
// hangs past [Config.Timeout] or writes no profile gets an entry with the
// matching status and error; all other benchmarks still run. A benchmark
// whose discovery run already fails is recorded from that run and not run
// again. Collect itself fails only when nothing can be done at all (no
// benchmarks, an unusable output directory) or when its context is canceled.
//
// # Resuming
//
// Collecting again into the same directory reuses every entry with status ok
// whose profile file is present and readable, whose test binary hash equals
// the freshly built binary's hash, and whose benchtime is unchanged; the
// others run again. [Config.Force] re-collects everything. Rebuilding is
// cheap thanks to the go build cache, and the discovery runs are repeated.
package collect
