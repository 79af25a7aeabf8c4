// Package culprit says where a benchmark's change happened and whether
// the application cares: it turns Valgrind's output files (Cachegrind or
// Callgrind) and Go CPU profiles into per-operation profiles keyed by
// function, diffs two sides per function, ranks the functions by their
// share of the benchmark's total change, and estimates the change's effect
// on the application from the application's reference profile.
//
// # Per-operation profiles
//
// The profiles it diffs are package opprof's: [Profile], [Sample],
// [Resolver], [Instructions] and [FromCPUProfile] are opprof's, under
// their names here too. opprof credits each source line to
// the innermost function enclosing it, so an inlined helper gets its own
// work.
//
// # Application impact
//
// [Impact] estimates the relative change of the application's CPU time as
// Σ over changed functions of (function's share of application CPU) ×
// (function's relative change), with an interval that scales the estimate
// by the benchmark's confidence interval. A change whose application
// share ([Diff.AppRelevantShare]) is below [NoImpactShare] is "likely no
// application impact": it lies in functions the application does not run.
package culprit
