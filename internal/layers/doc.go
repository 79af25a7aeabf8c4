// Package layers states the order of mbopt's packages, which its test
// enforces. mbopt has two halves: the relevance half reads profiles of an
// application and of its benchmarks and says which benchmarks matter
// (pprof files → call graphs → coverage → selection), and the comparison
// half runs two revisions' benchmarks and says what changed (revisions →
// verdicts → trends). Data flows one way, and a package imports only
// packages of a lower layer. The folders show the halves: relevance/ and
// the paper's packages at the root (callgraph, coverage, optimize,
// recommend), compare/, documents in report/, helpers in internal/ and
// test support in testkit/. The layers, lowest first (the table in
// layers_test.go numbers them 0, 10, 20, …, and a package's step within
// its layer orders packages of one layer that import one another):
//
//  0. helpers, under internal/, which the two halves share privately:
//     atomicfile, bitset, dirlock, enum (names of enumerations and their
//     parsing), gomod (the module a directory belongs to), interrupt, lazy,
//     par, proc, progress (the progress line on stderr), regfile, srcfunc
//     (source functions named as the compiler names them), textutil, the
//     documentation check doccheck and this package; then, on top of
//     those, gitrev (revisions and the default base, run through proc),
//     opprof (per-operation profiles of Valgrind's counts or CPU profiles,
//     credited by source line to functions), selfprofile (a CPU profile of
//     the running program, kept only when it succeeds), statedir (the
//     .mbopt directory git must not see), testbin (builds, lists and runs
//     test binaries) and tmpdir (temporary directories that interrupts and
//     killed runs do not leave behind); then benchname (benchmark ids)
//  1. nouns, which the stages and the two halves share: the module's root
//     package mbopt (the one input-error type), relevance/shard (the
//     partition of a suite over N machines); then internal/flagbind (the
//     command's flags bound to the root's mbopt.Field settings, and the
//     library's messages worded by them) and callgraph (profiles
//     become graphs; and what a benchmark and a function mean for the
//     application: the Impact the relevance half computes and the
//     comparison half attaches to its verdicts, and the Application's
//     shares culprit weighs a change by)
//  2. inputs: relevance/measure (one benchmark's time, CPU time or
//     instructions per operation: the engine both halves run benchmarks
//     with), relevance/covdata (coverage data becomes the set of functions
//     that ran) and relevance/manifest (the collection record); then
//     relevance/reference (application profiles, and the functions an
//     application workload ran) and relevance/collect (profiles
//     benchmarks)
//  3. the relevance half, under relevance/ beside the paper's packages at
//     the root: coverage, relevance/staticcg (static call edges for an
//     application graph), relevance/suite (the suite as go test
//     invocations); then optimize (Algorithm 2 and variants), recommend
//     (Algorithm 3), relevance/changes (a diff mapped to changed functions
//     and to the benchmarks that cover them); then relevance/sensitivity
//     (what a suite would catch: detectable slowdowns, and the relation
//     "b catches f" that optimize's caught objective selects over); then
//     relevance/analysis (the relevance half on files); then relevance/flow (the relevance half's
//     flows as mbopt's commands run them: run, which collects and analyses
//     a module in one call, suite and check)
//  4. the comparison half, under compare/: compare/benchstats (the
//     statistics of a comparison); then compare/culprit (the functions that
//     changed beyond their noise, from both sides' per-measurement
//     profiles, and the application impact, resampled as benchstats
//     resamples); then compare/engine (runs two revisions' benchmarks on
//     the RMIT schedule: worktrees, builds, raw result files) and
//     compare/detect (jump, trend and fixed-value detection over a
//     benchmark's history); then compare (judges two revisions' raw
//     results: verdicts, false discoveries, gates, shard merges, culprits);
//     then compare/history (the SQLite store of compare reports, their
//     series, detections and A/A calibration), compare/bisect (finds the
//     commit that made a benchmark's change, with compare's engine) and
//     compare/mutate (a function slowed down by a known share of its cost,
//     compared with the unchanged code); then compare/flow (the comparison
//     half's flows as mbopt's commands run them: compare, merge,
//     rebaseline and the history's trends, returned as values)
//  5. documents, one package per document: first what they share,
//     report/plot (draws every figure; the only importer of
//     gonum.org/v1/plot), report/github (GitHub Actions step summaries and
//     annotations) and report/internal/render (text tables, Markdown
//     escaping); and report/site (a history as a static web site); then
//     report/internal/doc (the documents' neutral model of typed tables
//     and notes, and its printers per format); then report (the suite
//     report of an analysis), report/verdict (a comparison of two
//     revisions) and report/trend (a benchmark history)
//  6. test support, in testkit/ (a room of its own): the fixtures
//     proftest, synth and cmpfixture, the golden-file and git helpers
//     golden and gittest, fieldtest (each package's check of its
//     mbopt.Field constants) and perf (the performance benchmarks' memory
//     and CPU metrics); then the programs that write test corpora, badcorpus,
//     nosamples and corpus (the synthetic corpus of 'make bench'),
//     loopmodule (the hashing-loop module 'make bench' times mbopt compare
//     on), and floor, the decoding floor 'make bench' measures mbopt
//     analyze against
//  7. the command: cmd/mbopt/internal/cli (the plumbing its commands
//     share: exit statuses, usage errors, help, output files, warnings);
//     then cmd/mbopt
//
// The test reads a package's layer from its folder (the longest entry of
// its table that is the package or a folder above it), so a new package
// takes its folder's place in the flow.
//
// The halves meet only in the nouns and above them: no package of the
// relevance half, its inputs or its nouns depends, even indirectly, on a
// package of the comparison half or on a document of it (report/verdict,
// report/trend, report/site). Test support sits above the packages it
// builds for and may import any of them; no production package imports it
// (only _test.go files do). The command imports no internal algorithm code
// (internal/lazy) either: it maps flags to the library.
package layers
