package sensitivity

import (
	"cmp"
	"slices"
)

// A Target is what a recommendation names: a function a benchmark can
// call and the application functions that count for it (package
// recommend's Candidates, which package analysis passes on).
type Target struct {
	// Function is the target's name.
	Function string
	// Members are the names of the application functions that count for
	// it: its own and its closures'.
	Members []string
	// Negligible marks a target too small and rarely run to benchmark.
	Negligible bool
}

// Regroup ranks r's recommendations by targets instead of by function:
// one recommendation per target some of whose members a slowdown of
// RecommendSlowdown would go unnoticed in, its Unnoticed the AppShare of
// those members (Members, largest first, then by name), its AppShare that
// of all its members, and its detectable slowdown, benchmark, share and
// MDE those of its first member (the one most of the unnoticed time is
// in). Functions in no target are no longer recommended. The order is
// by Unnoticed, largest first, then by name, with negligibleLast the
// negligible targets after all others. r.Functions is unchanged.
func (r *Result) Regroup(targets []Target, negligibleLast bool) {
	byName := make(map[string]Function, len(r.all))
	for _, f := range r.all {
		byName[f.Function] = f
	}
	var recs []Recommendation
	for _, t := range targets {
		rec := Recommendation{Function: Function{Function: t.Function}, Negligible: t.Negligible}
		var unnoticed []Function
		for _, m := range t.Members {
			f, ok := byName[m]
			if !ok || f.AppShare == 0 {
				continue
			}
			rec.AppShare += f.AppShare
			if !f.Caught(r.RecommendSlowdown) {
				unnoticed = append(unnoticed, f)
				rec.Unnoticed += f.AppShare
			}
		}
		if len(unnoticed) == 0 {
			continue
		}
		slices.SortFunc(unnoticed, func(a, b Function) int {
			return cmp.Or(cmp.Compare(b.AppShare, a.AppShare), cmp.Compare(a.Function, b.Function))
		})
		first := unnoticed[0]
		rec.DetectableSlowdown, rec.Benchmark, rec.Share, rec.MDE, rec.Effect = first.DetectableSlowdown, first.Benchmark, first.Share, first.MDE, first.Effect
		for _, f := range unnoticed {
			rec.Members = append(rec.Members, f.Function)
		}
		recs = append(recs, rec)
	}
	sortRecommendations(recs, negligibleLast)
	r.Recommendations = recs
}
