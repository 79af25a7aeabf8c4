package compare

// Reclassify takes the verdict of every compared result of rep that has an
// estimate again, with the benchmark's calibrated threshold
// threshold(id, unit) in place of its dynamic one (0 keeps the dynamic
// one), by the rule of [Report.FalseAlarms] and benchstats.Judge, and sorts
// the results again ([SortResults]). Result.Threshold records the
// threshold applied. Callers use it to apply per-benchmark thresholds,
// such as those calibrated from A/A comparisons (package history). The
// direction of a unit is the one [AnalyzeReaders] uses.
func Reclassify(rep *Report, threshold func(id, unit string) float64) {
	judge(rep, threshold)
	SortResults(rep.Results)
}
