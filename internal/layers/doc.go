// Package layers states the order of mbopt's packages, which its test
// enforces: data flows one way (pprof files → call graphs → coverage →
// selection → outputs), and a package imports only packages of a lower
// layer. The layers, lowest first:
//
//  0. helpers with no mbopt imports: bitset, benchname, benchstats (the
//     statistics of a comparison), and internal atomicfile, interrupt,
//     regfile, textutil, par, proc, lazy, srcfunc (source functions named as
//     the compiler names them) and the documentation check internal/doccheck
//  1. the data each stage exchanges: manifest (the collection record),
//     callgraph (profiles become graphs), covdata (coverage data becomes
//     the set of functions that ran), shard (the partition of a suite
//     over N machines); internal/gitrev (revisions and the default base,
//     run through internal/proc); internal/statedir (the .mbopt
//     directory git must not see); internal/testbin (runs test binaries and
//     the go command for collect and compare); detect (jump, trend and
//     fixed-value detection over a benchmark's history, on benchstats
//     intervals)
//  2. the first stage and the graph comparison: collect (profiles
//     benchmarks), reference (application profiles), coverage, staticcg
//     (static call edges for an application graph); and compare (runs two
//     revisions' benchmarks against each other)
//  3. the choices: optimize (Algorithm 2 and variants), recommend
//     (Algorithm 3); changes (a diff mapped to changed functions and to the
//     benchmarks that cover them); history (the SQLite store of compare
//     reports, their series, detections and A/A calibration)
//  4. the suite as go test invocations: suite
//  5. the pipeline on files: analysis
//  6. the renderings: report; and the whole pipeline on a module: pipeline
//     (collect, reference and analysis in one call)
//  7. the history as a static web site, from report's history document:
//     report/site; and test support, under internal/testing: the fixtures
//     proftest, synth and cmpfixture, the golden-file and git helpers
//     golden and gittest, and perf (the performance benchmarks' memory and
//     CPU metrics)
//  8. the programs that write test corpora: internal/testing/badcorpus,
//     internal/testing/nosamples, internal/testing/corpus (the synthetic
//     corpus of 'make bench'); and internal/testing/floor, the decoding
//     floor 'make bench' measures mbopt analyze against
//  9. the command: cmd/mbopt
//
// Test support sits above the packages it builds for and may import any of
// them; no production package imports it (only _test.go files do). The
// command imports no internal algorithm code (internal/lazy) either: it
// maps flags to the library.
package layers
