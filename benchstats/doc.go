// Package benchstats holds the statistics mbopt uses to compare two
// versions of a benchmark: the relative change of the medians, its
// confidence interval and p-value from a hierarchical bootstrap, the
// classification of a change as definite or potential, the control of the
// false discovery rate over a run's many benchmarks, and a Mann-Whitney
// U-test as a second opinion.
//
// The method is the one of Grambow et al., "Using Microbenchmark Suites to
// Detect Application Performance Changes" (IEEE TCC 2022), sections 3.3
// and 3.4: measurements come from randomized multiple interleaved trials
// (RMIT), so they form a hierarchy of trials (instance runs), runs within a
// trial (suite runs) and iterations within a run. A [Hierarchy] holds one
// version's measurements in that shape.
//
// # Relative change
//
// The change is median(head)/median(base) − 1 over all measurements of
// each version. The median of an even number of values is the mean of the
// two middle ones.
//
// # Hierarchical bootstrap
//
// [Compare] draws Options.Resamples resamples (10,000 by default). Each
// resample draws, with replacement, as many trials as there are; within
// each drawn trial as many runs as it has; within each drawn run as many
// iterations as it has. Base and head ran interleaved on the same machine
// in the same trial and run, so a drawn trial index (and, when both
// versions have the same number of runs in it, a drawn run index) is used
// for both versions; iterations are drawn independently for each version.
// The resample's change is the ratio of its medians minus one; the
// confidence interval is the empirical α/2 and 1−α/2 quantiles of the
// resampled changes (gonum stat.Quantile, Empirical), α = 1 − Confidence.
// [CompareFlat] is the ordinary bootstrap that ignores the hierarchy; it
// exists to show what the hierarchy adds: when trials differ, the flat
// interval is too narrow.
//
// The random source is a PCG seeded from Options.Seed, so the same seed
// and the same data give the same interval.
//
// # Classification
//
// The width of the interval is the benchmark's instability. [Classify]
// compares the interval with a threshold band [−t, +t] (the study used
// t = 1%): a change is definite when the whole interval lies beyond the
// band on one side, potential when the median change lies beyond it but
// the interval reaches into the band, and otherwise unchanged.
package benchstats
