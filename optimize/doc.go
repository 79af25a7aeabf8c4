// Package optimize chooses a small sub-suite of microbenchmarks that keeps
// the suite's coverage of the application.
//
// [Greedy] implements Algorithm 2 of Grambow's dissertation (2024, section
// 6.2.2), "Removing redundancies in the microbenchmark suite": repeatedly
// take the benchmark whose coverage set adds the most application nodes not
// yet covered, and stop when the best one adds none. The result has the
// suite's full coverage of the counted nodes with, in general, far fewer
// benchmarks. It is the classic greedy for minimum set cover, so its size is
// within a factor H(k) ≤ 1 + ln k of the optimum, k being the largest
// coverage set.
//
// Which nodes count is [Options.Nodes]: [ProjectNodes] (the default: the
// paper's practical relevance) or [AllNodes].
//
// Beyond the paper, [Select] weights nodes by application CPU time
// (objective impact: the attributed impact by default, or the paper's flat
// reference impact, [Plan.Impact]), bounds the suite's summed benchmark
// cost (budgeted maximum coverage with the single-best-set safeguard, which keeps a
// (1 − 1/e)/2 guarantee), finds a cheap suite with Algorithm 2's coverage
// (objective cost: cost-weighted set cover with a reverse-delete pass,
// never costlier than Algorithm 2's suite), keeps what the suite would
// catch (objective caught, over the relation "b catches f" that package
// relevance/sensitivity builds), and stops after a number of
// picks or below a minimum gain; with an empty [Plan] it returns exactly
// Greedy's picks. [Certify] bounds how far Greedy's suite can be from the
// smallest one, and [CertifyCost] how far the cost objective's suite can
// be from the cheapest one, with the LP relaxation of set cover.
//
// # Ties
//
// The paper sorts by gain only and leaves ties to chance. Here [Greedy] and
// every [Select] plan share one engine and one order of the candidates;
// each step picks the first benchmark by:
//
//  1. the larger gain per cost (only under a [Plan.Budget] and for
//     [Cost]);
//  2. the larger gain: counted nodes newly covered (Algorithm 2 and
//     Cost), or their application time ([Impact]), or their summed
//     [Plan.Weights];
//  3. for node counts without a budget and for Cost, the larger added
//     impact of all application nodes the pick newly covers (the
//     benchmark that covers more application CPU time): their attributed
//     time by default, the paper's flat time with [Options.Impact] or
//     [Plan.Impact] set to coverage.FlatImpact; for Impact and Weights,
//     more counted nodes newly covered; nothing for node counts under a
//     budget, where ties on gain per cost are rare, to keep evaluations
//     cheap;
//  4. the smaller benchmark graph (a more focused benchmark); for [Caught]
//     instead the more precise benchmark (the smaller of [Plan.MDEs]; one
//     without an MDE last), then the cheaper (the smaller of
//     [Plan.Costs]; one without a cost after every one with a cost), and
//     no rule 3;
//  5. the smallest id.
//
// Ids are unique, so the order is total and the result deterministic.
// With equal costs for every benchmark, rules 1–3 of Cost order exactly as
// Algorithm 2's, so its greedy picks the same suite.
//
// The Cost objective's reverse-delete pass visits its picks from the most
// expensive to the cheapest; equal costs: the later pick first.
//
// # Marginal picks
//
// Algorithm 2 counts nodes, so a benchmark gets into the suite by covering
// one node nobody else covers, however little that node runs: a
// benchmark whose only new functions are assertion helpers worth 0.01 s of
// the application's time. A pick is marked marginal ([Step.Marginal]) when
// the application time of the nodes it newly covers is under
// [MarginalShare] (1%) of the application's total; the time is the
// attributed time by default, the paper's flat time with
// coverage.FlatImpact as the Impact, the same that breaks ties. The mark
// never changes the picks: the suite keeps its coverage, and whether a
// marginal pick is worth running is the maintainer's call.
//
// # Running time
//
// Gains only shrink as coverage grows, and so do added impacts, so the
// greedy is evaluated lazily: a max-heap holds each benchmark's last
// computed key and only the benchmark at the top is re-evaluated, until the
// top is fresh. The result is exactly that of the eager greedy; the cost is
// a few bitset intersections per step instead of one per benchmark.
package optimize
