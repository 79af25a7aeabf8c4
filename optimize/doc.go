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
// (objective impact), bounds the suite's summed benchmark cost (budgeted
// maximum coverage with the single-best-set safeguard, which keeps a
// (1 − 1/e)/2 guarantee), and stops after a number of picks or below a
// minimum gain; with an empty [Plan] it returns exactly Greedy's picks.
// [Certify] bounds how far Greedy's suite can be from the smallest one with
// the LP relaxation of set cover.
//
// # Ties
//
// The paper sorts by gain only and leaves ties to chance. Here every step
// picks, among the benchmarks with the largest gain, the one that newly
// covers the most application CPU time (added reference impact: the flat
// time of all application nodes the pick newly covers, project and external),
// then the one with the smaller benchmark graph (a more focused benchmark),
// then the smallest id. The order is total, so the result is deterministic.
//
// # Cost
//
// Gains only shrink as coverage grows, and so do added impacts, so the
// greedy is evaluated lazily: a max-heap holds each benchmark's last
// computed key and only the benchmark at the top is re-evaluated, until the
// top is fresh. The result is exactly that of the eager greedy; the cost is
// a few bitset intersections per step instead of one per benchmark.
package optimize
