// Package benchname holds go test's naming rules for benchmarks, which
// every stage of mbopt shares: collection (package collect) selects and
// names what it profiles with them, and the suite (package suite) turns
// picks back into exact go test invocations.
//
//   - An id names one benchmark across a module: the package's import path,
//     ".", and the full benchmark name as go test prints it, such as
//     "example.com/m/storage.BenchmarkAdd/n=10" ([ID], inverted by
//     [SplitID]). A full name's top-level benchmark, the BenchmarkXxx
//     function it runs under, is the name up to its first "/" ([Top]).
//   - Sub-benchmark names are printed rewritten: white space becomes "_" and
//     unprintable runes their escapes ([Rewrite]).
//   - A -bench pattern is split at "/" into per-level pieces and at "|" into
//     alternatives, outside brackets and parentheses ([CompileFilter]
//     matches names exactly as go test does).
//   - [Pattern] builds the anchored, quoted pattern that selects exactly a
//     given set of names: one alternative per group of siblings, like
//     ^BenchmarkA$/^(x|y)$|^BenchmarkB$.
package benchname
