package compare

import (
	"golang.org/x/perf/benchfmt"

	"github.com/mbopt/mbopt/benchstats"
)

// Reclassify classifies every compared result of rep that has an estimate
// again, against the threshold threshold(id, unit) returns for it instead
// of Settings.Threshold, and sorts the results again ([SortResults]). A
// result whose threshold differs from Settings.Threshold records it in
// Result.Threshold. Callers use it to apply per-benchmark thresholds,
// such as those calibrated from A/A comparisons (package history). The
// direction of a unit is the one [AnalyzeReaders] uses.
func Reclassify(rep *Report, threshold func(id, unit string) float64) {
	var units benchfmt.UnitMetadataMap
	for i := range rep.Results {
		r := &rep.Results[i]
		if r.Status != Compared || r.Estimate == nil {
			continue
		}
		t := threshold(r.ID, r.Unit)
		r.Verdict = benchstats.Classify(*r.Estimate, t, units.GetBetter(r.Unit) > 0)
		r.Threshold = 0
		if t != rep.Settings.Threshold {
			r.Threshold = t
		}
	}
	SortResults(rep.Results)
}
