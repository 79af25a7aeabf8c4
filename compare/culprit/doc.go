// Package culprit says where a benchmark's change happened and what it
// means for the application: it turns Valgrind's output files (Cachegrind
// or Callgrind) and Go CPU profiles into per-operation profiles keyed by
// function, compares every measurement of a benchmark's two versions per
// function ([Explain]), keeps the functions whose change is beyond their
// own noise (the culprits), and estimates the change's effect on the
// application from the application's reference profile
// ([callgraph.Application]).
//
// # Per-operation profiles
//
// The profiles are package opprof's: [Profile], [Sample], [Resolver],
// [Instructions] and [FromCPUProfile] are opprof's, under their names here
// too. opprof credits each source line to the innermost function
// enclosing it, so an inlined helper gets its own work. A comparison
// gives one profile per measurement ([Measurements]): with the
// instructions metric every measurement of the comparison itself, with
// time and cpu a few CPU profiles per version taken for the purpose.
//
// # Culprits: changes, not noise
//
// Functions are named as callgraph.NormalizeName names them, the values
// of names that normalise alike summed, so a generic function's lines
// credited by source and by symbol are one function, as in the
// application's profile.
//
// A function is tested when its median per-operation value differs
// between the versions by at least [Options.MinDelta] and a ten-thousandth
// of the benchmark's total; its p-value is Welch's t-test over the
// measurements of both versions (0 when both versions measured it the
// same every time and the values differ, as counting does for code that
// did not move with the runtime), and the culprits are the tested
// functions that pass the Benjamini–Hochberg correction at [Options.FDR]
// (1% by default): in an A/A comparison none, whatever the runtime's
// counts do. With fewer than two measurements a version has no noise to
// measure and nothing is a culprit ([Diff.TooFew]). Culprits are ranked by
// the size of their change whatever its sign, so the function that
// received inlined code leads beside those that lost it, and each one's
// share is its part of the total movement (the shares add up to 1).
//
// # Application impact
//
// A relative change is formed only on a clearly positive base: every base
// measurement positive and their spread at most half the median. By that
// rule a culprit is of one of four kinds ([KindChanged], [KindVanished],
// [KindNew], [KindUnclear]), and the estimate is a sum of terms, each a
// share of the application's CPU time times a relative change:
//
//   - a changed function: its share of the application × its relative
//     change. A function outside the project (the runtime, the standard
//     library, a dependency) has the same code in both versions: it moved
//     because the project code the benchmark runs calls it differently,
//     and the application's other paths to it did not move. Its share is
//     then the application's time in it under the project functions that
//     are the innermost project frame of its stacks there
//     (callgraph.Application.Owners) and that the benchmark runs too
//     ([Culprit.AppContext]): an Encode that copies twice the bytes
//     doubles memmove in its benchmark, which weighs the application's
//     memmove under Encode, not the memmove of its Decode. It keeps its
//     whole share when the application runs it under no project function,
//     or under none the benchmark runs;
//   - a vanished function (inlined away by hand) folds into the changed
//     functions that grew and that the application calls it from (else
//     those of its package that grew): the term of such a caller
//     becomes (caller's share + the application's time in the function
//     called from that caller) × (their joint change over their joint
//     base), so the application's other paths to the function keep
//     their cost; with no such caller its work went away, and the
//     application saves its time in the callers the benchmark runs (a
//     function outside the project: under the project functions the
//     benchmark runs, as for a changed one);
//   - a new function folds into the functions of its package that
//     shrank (code moved out of them): its cost joins their change;
//   - what is left (unclear functions the application runs, new ones
//     with nowhere to go) counts as its fraction of the benchmark's
//     total times the benchmark's share of the application
//     ([AppImpact.Unattributed]).
//
// Functions the application does not run weigh nothing, whether their
// base is clear, unclear or nearly nothing (a "new" function the base
// ran is no new code), so a change confined to them estimates 0; only
// code the base never ran, which no profile of it can hold, is new.
// The interval is a percentile bootstrap over the same hierarchical resampling as the benchmark's own estimate
// (trials, runs and measurements of both versions, drawn by
// benchstats.ResampleHierarchy), each term recomputed from the drawn
// measurements' medians and, where the application's profile says how
// many samples its shares come from (callgraph.Application.Samples), its
// weight drawn with its sampling error (a share s of n samples varies by
// about √(s(1−s)/n)); repeated comparisons of one change therefore agree
// within their intervals, and the interval covers what the application
// itself would measure, not only what the benchmark did. Where no function changed beyond its
// noise but the benchmark did, the estimate is the benchmark's share of
// the application times its change, with its interval
// ([BasisBenchmark]); where neither did, it is 0 ([BasisNone]). A change
// whose application-relevant share is below [NoImpactShare] is "likely no
// application impact": it lies in functions the application does not run.
//
// The weights are shares of the application's CPU time; with instruction
// counts, the relative changes are of instructions. Where the code that
// changed runs at another number of instructions per cycle than the rest
// of its function (cheap arithmetic added to a search that waits on
// memory), the application's CPU time moves less or more than its
// instructions; measuring the application itself (compare's
// confirmation) tells.
package culprit
