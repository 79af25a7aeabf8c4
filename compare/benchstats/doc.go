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
//
// # Verdicts you can trust
//
// Classify is the study's rule with one fixed threshold. [Judge] is the
// rule mbopt's comparisons use; it adds what a shared, noisy machine and a
// suite of many benchmarks need:
//
//   - The minimum detectable effect of an estimate
//     ([Estimate.MinDetectableEffect]) is the smallest change its noise and
//     repetitions could tell from no change: the larger half-width of the
//     interval. "No change" then means "no change larger than this (or the
//     threshold)".
//   - A change is definite when its p-value survives the run's
//     false-discovery-rate correction and its whole interval lies beyond
//     ±max(fixed, calibrated threshold).
//   - Otherwise it is potential when its median passes the largest of the
//     fixed threshold, the benchmark's calibrated threshold (from A/A
//     comparisons) or, without one, the dynamic threshold
//     [DynamicFraction] × the interval's width (the study's 75%), and the
//     minimum detectable effect towards 0 (the interval's half-width on
//     that side): noise alone is no potential change.
//   - Below [MinSamples] measurements per version (6 at 95%, 8 at 99%)
//     there is no verdict.
//
// # P-values and the false discovery rate
//
// [Compare] also returns Estimate.P, the two-sided p-value of the same
// bootstrap ([BootstrapP]): twice the share of resampled changes on the
// far side of 0, with +1 terms, so it lies in [2/(B+1), 1] for B resamples
// and is at most 1 − Confidence exactly when the interval excludes 0 (up
// to those terms). At the default schedule (3 trials × 3 runs × 5
// iterations) and 10,000 resamples a clear change gets 0.0002; a U-test
// on 3 trial medians per side could never go below 0.1. Resampling trials,
// runs and iterations makes it conservative on A/A data.
//
// A comparison of m benchmarks and units is m tests. At 99% confidence
// about m/100 of them show a change by chance in every run. mbopt controls
// the false discovery rate with the Benjamini–Hochberg procedure
// ([BenjaminiHochberg], [AdjustBH]) over the P of every estimate of a run
// at level q (0.05 by default): the k smallest p-values are significant,
// where k is the largest rank with p_(k) ≤ k·q/m. Among the significant
// changes at most a share q is expected to be noise, and in a run where
// nothing changed the chance of any false alarm is at most q
// ([ExpectedFalseAlarms]; [UncorrectedFalseAlarms] is the figure without
// the correction).
//
// The correction must not hide a change that its own interval shows. The
// smallest p-value of B resamples is 2/(B+1) ([PFloor]), which passes the
// correction alone among m tests only when it is at most q/m: 10,000
// resamples serve 250 tests at q = 0.05. A caller that knows m resamples
// the p-values at their floor again with [ResamplesFor] resamples, and
// leaves out of m the estimates that are no test ([Estimate.Constant]: an
// exact unit that did not move, whose p-value is 1 whatever happens).
package benchstats
