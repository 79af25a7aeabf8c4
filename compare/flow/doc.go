// Package flow runs the comparison half's flows as mbopt's commands run
// them, and returns what they found as values; the caller (cmd/mbopt)
// chooses how to show them.
//
// [Compare] is "mbopt compare": the benchmarks from a suite file, an
// analysis's suite (with what changed since a revision), a preset or a
// -bench pattern, compare.Run, and the history — the verdicts retaken
// against the thresholds calibrated from its A/A comparisons, the report
// stored. [Merge] does the same for sharded comparisons, and
// [Rebaseline] moves a history's baseline with a bridging comparison.
// [History] reads a history's series against its baseline with change
// detection ([Trends]), and [Instability] its A/A calibration
// ([Calibration]), as "mbopt history" shows them; package report/trend
// renders both. [ExcludeUnstable] leaves the benchmarks a history measured
// as unstable out of an analysis's suite, [SensitivityMDEs] gives an
// analysis's sensitivity the benchmarks' measured detectable effects,
// [MeasuredMDEs] reads them for analysis.Options.MDEs (where they make the
// caught objective the default), and [CompareSuite] turns an analysis's suite into the benchmarks of a
// comparison.
//
// Errors about a setting are *mbopt.Error values naming the field of the
// configuration, such as "Config.SuiteFile"; a command line words them
// with its flags.
package flow
