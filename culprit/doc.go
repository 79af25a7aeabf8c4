// Package culprit says where a benchmark's change happened and whether
// the application cares: it turns Valgrind's output files (Cachegrind or
// Callgrind) and Go CPU profiles into per-operation profiles keyed by
// function, diffs two sides per function, ranks the functions by their
// share of the benchmark's total change, and estimates the change's effect
// on the application from the application's reference profile.
//
// # Attribution by source line
//
// Go inlines small functions into their callers, and Valgrind's function
// table then credits the caller with the helper's work. Valgrind records
// counts per source file and line as well, and the line table of an
// inlined call names the helper's lines; [Resolver] maps each file:line to
// the innermost function whose body encloses it (go/ast, named by
// internal/srcfunc's rule, the one changes uses), so the helper's work is
// credited to the helper. CPU profiles carry inline frames, and
// [FromCPUProfile] credits the innermost one.
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
