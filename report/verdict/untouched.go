package verdict

import (
	"fmt"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// untouchedMark follows the name of a detection in a benchmark that no
// changed function touches (compare.Result.Untouched).
const untouchedMark = "(untouched: likely noise)"

// noisy reports whether res is a detection in an untouched benchmark.
func noisy(res *compare.Result) bool {
	return res.Untouched && res.Status == compare.Compared && res.Verdict != benchstats.Unchanged
}

// untouchedLegend explains the untouched marks of r in one sentence, or
// returns "" when no detection is in an untouched benchmark.
func untouchedLegend(r *compare.Report) string {
	n, touched := 0, 0
	for i := range r.Results {
		res := &r.Results[i]
		if res.Status != compare.Compared || res.Verdict == benchstats.Unchanged {
			continue
		}
		if res.Untouched {
			n++
		} else {
			touched++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("untouched: the benchmark covers no function the change touches, so a detection there is likely noise (%d untouched and %d touched detections)", n, touched)
}
