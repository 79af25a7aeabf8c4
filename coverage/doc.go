// Package coverage compares one application call graph with the call graphs
// of many microbenchmarks, as defined in section 6.2.1 of Grambow's
// dissertation (2024) and, for reference impact, in "Using Microbenchmark
// Suites to Detect Application Performance Changes" (IEEE TCC 2022).
//
// A benchmark's coverage set is the set of application nodes whose function
// also appears in the benchmark's graph. The suite's project-only coverage
// is the number of application project nodes in the union of all coverage
// sets divided by the number of application project nodes; its overall
// coverage is the same over all application nodes.
//
// # Reference impact and attributed impact
//
// Both say how much of the application's CPU time a benchmark's coverage
// set stands for; [ImpactKind] selects one, and [ImpactKind.NodeSeconds]
// is the rule.
//
// The reference impact of the TCC paper ([FlatImpact], [Set.ImpactSeconds])
// is the application's flat (self) time summed over the coverage set, project
// and external nodes alike. In Go much of the flat time lies in runtime and
// library leaves (memclr, mallocgc, Syscall6) that nearly every benchmark
// also runs, so a benchmark that covers one project function can be
// credited with most of the application's time, and the impacts of a few
// unrelated benchmarks add up far past 100%.
//
// The attributed impact ([AttributedImpact], [Set.AttributedImpactSeconds])
// charges each application sample to the innermost project frame on its
// stack, the project function responsible for it ([callgraph.Node.Attributed]:
// runtime and library time below it included), and sums those charges over
// the project nodes of the coverage set. A sample with no project frame
// ([callgraph.Graph.OutsideProject]) is charged to no benchmark. Each sample
// is charged to one node, so benchmarks with pairwise disjoint project
// coverage have attributed shares that add up to at most 100%, and a
// suite's attributed share is at most 100%.
//
// A worked example: an application whose project functions are p.Serve,
// p.Encode and p.Parse, with three samples (root → leaf):
//
//	p.Serve → p.Encode → runtime.memclrNoHeapPointers    40ms
//	p.Serve → p.Parse  → runtime.memclrNoHeapPointers    40ms
//	runtime.gcBgMarkWorker → runtime.memclrNoHeapPointers 20ms
//
// Total 100ms. Flat time: memclrNoHeapPointers 100ms, every other function 0.
// Attributed time: p.Encode 40ms, p.Parse 40ms, p.Serve 0; the GC worker's
// 20ms is outside the project. BenchmarkEncode covers p.Encode and
// memclrNoHeapPointers, BenchmarkParse covers p.Parse and
// memclrNoHeapPointers. Then
//
//	               reference impact (flat)   attributed impact
//	BenchmarkEncode     100ms  100%            40ms  40%
//	BenchmarkParse      100ms  100%            40ms  40%
//	sum                 200ms  200%            80ms  80%
//
// The flat figures say that each benchmark stands for all of the
// application's time; the attributed ones say what each one's project code
// is responsible for.
//
// Sets are bitsets over application node ids ([callgraph.Graph] ids are in
// name order, so every set is deterministic).
//
// # One meaning of coverage
//
// In mbopt, coverage always means the call-graph coverage above: which
// application functions a benchmark reaches, and the share of them a
// suite reaches. It never means Go's statement coverage. The data of
// go test -cover is called cover data (package covdata, a manifest of
// source "cover", mbopt profile --source cover), and what it yields, the
// functions a benchmark ran, a function set: one of two ways to learn a
// benchmark's functions, beside its CPU profile, and so an input to
// coverage, not coverage itself.
package coverage
