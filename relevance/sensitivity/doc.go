// Package sensitivity says what a benchmark suite would catch: for each
// function of the application, the smallest slowdown of it that some
// benchmark would report as a change.
//
// Coverage says a benchmark runs a function; it does not say the benchmark
// would notice the function getting slower. A function that takes 40% of
// the application's CPU time can be covered by a benchmark in which it is
// 0.1% of the work: a 50% slowdown of it moves that benchmark by 0.05%,
// below any benchmark's minimum detectable effect.
//
// # Definitions
//
// For a function f and a benchmark b:
//
//   - share_b(f) is f's self (flat) share of b's per-operation cost: the
//     flat value of f's node in b's profile over the profile's total. From
//     instruction profiles (mbopt profile --source instructions) it is a
//     share of the instructions b runs per operation; from CPU profiles it
//     is a sampled share of its CPU time, known only to within the
//     profile's sampling error (see [Result.Source]).
//   - MDE_b is b's minimum detectable effect: the smallest relative change
//     of b that a comparison reports (compare.Result.MinDetectableEffect),
//     from a comparison the caller has ([Benchmark.MDE]) or else
//     [Options.DefaultMDE].
//   - The suite catches a slowdown when a comparison reports a definite
//     regression, and compare's judge calls a change definite only when
//     its whole interval lies beyond the threshold ([Options.Threshold],
//     compare's --threshold, 1% by default): the interval's lower end,
//     the change minus its half-width MDE_b, must pass the threshold. So
//     the effect b detects is E_b = threshold + MDE_b, not the larger of
//     the two: at max(MDE_b, threshold) the interval's lower end falls
//     about one half-width short of the threshold, and a comparison
//     reports the change as definite about half the time.
//   - A slowdown s of f (f's own cost per call times 1+s) moves b by
//     s·share_b(f), so b reports it when s·share_b(f) ≥ E_b. The
//     smallest slowdown of f the suite would catch, its detectable
//     slowdown, is the minimum over the benchmarks that run f of
//     E_b / share_b(f); a function no benchmark runs (share 0 in every
//     benchmark) has none: the suite would never notice it.
//
// The caught curve ([Result.Caught]) gives, for a slowdown s, the share of
// the application's CPU time (flat, so every sample counts once) that lies
// in functions whose detectable slowdown is at most s: "a 10% slowdown
// would be caught in functions that take 62% of the application's CPU".
// Every application share is of the application graph's unit: its CPU
// time, or the instructions of an instruction profile of the application
// (read with callgraph.Options.AllowNonCPU), in which the reports then
// word it ("of the application's instructions").
//
// The recommendations ([Result.Recommendations]) rank the application's
// functions by the application time in which a slowdown of
// [Options.Recommend]'s size (10% by default) would go unnoticed: a
// function whose detectable slowdown is larger than that, or that has
// none, contributes its whole application share. Ties are broken by name.
//
// # Selection
//
// A [Relation] is "b catches f" at one slowdown (10% by default): b
// catches f when E_b / share_b(f) is at most that slowdown. It is a
// coverage.Result whose sets are what each benchmark catches, so the
// minimal suite's greedy (optimize.Select with the optimize.Caught
// objective), its budgeted variant and its certificate (optimize.Certify)
// run over it unchanged: [Relation.Select] keeps every function the whole
// suite catches, each weighed by its application share, and breaks ties
// toward the more precise benchmark (the smaller E_b), then the cheaper,
// then the smaller id.
package sensitivity
