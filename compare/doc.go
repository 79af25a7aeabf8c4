// Package compare runs the benchmarks of two revisions of a Go module
// against each other and says, with sound statistics, whether the head is
// slower or faster than the base, ranked by what that means for the
// application.
//
// The method is the second half of Grambow et al., "Using Microbenchmark
// Suites to Detect Application Performance Changes" (IEEE TCC 2022),
// sections 3.3 and 3.4: randomized multiple interleaved trials (RMIT),
// the relative change of the medians, a hierarchical bootstrap confidence
// interval (package benchstats), definite and potential changes, and the
// reference impact of each benchmark.
package compare
