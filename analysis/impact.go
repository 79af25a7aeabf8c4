package analysis

import (
	"slices"

	"github.com/mbopt/mbopt/relevance"
)

// Impacts returns what each analysed benchmark means for the application,
// as the [relevance.Impact] package compare attaches to its results: by
// benchmark id, the benchmark's attributed impact and the paper's (flat) reference
// impact as shares of the application's CPU time (the figures of the
// "Benchmarks by attributed impact" table, coverage.Set's
// AttributedImpactShare and ImpactShare), and the project functions it
// covers, sorted by name. Functions outside the project are left out:
// they are the runtime, the standard library and dependencies, which
// every benchmark shares and none is written for; their time is in Flat.
//
// A benchmark is keyed by the id compare uses, its package's import path,
// a dot and its full name (see package benchname): the one its collection
// manifest entry gives when rep has one (rep.Entries), else its analysis
// id, which is that id already for profiles named
// "<import path>.<BenchmarkName>.pprof". Benchmarks of hand-named profiles
// ("storage__BenchmarkX") keep their analysis id and match no compare
// result. Skipped benchmarks have no entry. The map is empty, not nil,
// when there are no benchmarks.
func Impacts(rep *Report) map[string]relevance.Impact {
	out := map[string]relevance.Impact{}
	cov := rep.Coverage
	if cov == nil {
		return out
	}
	for _, s := range cov.Sets {
		var fns []string
		s.Nodes.Each(func(i int) {
			if n := &cov.App.Nodes[i]; n.Project {
				fns = append(fns, n.Name)
			}
		})
		slices.Sort(fns)
		id := rep.compareID(s.ID)
		if id == "" {
			id = s.ID
		}
		out[id] = relevance.Impact{Attributed: s.AttributedImpactShare, Flat: s.ImpactShare, Functions: fns}
	}
	return out
}
