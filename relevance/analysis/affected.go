package analysis

import (
	"github.com/mbopt/mbopt/relevance/changes"
	"github.com/mbopt/mbopt/relevance/suite"
)

// AffectedSuite returns the minimal suite of rep as [SuiteBenchmarks] does,
// with Affected set on each benchmark that the change ch touches (see
// changes.Affected: a changed function in its coverage set, or its own
// benchmark function changed), and the hits, in pick order. It fails as
// SuiteBenchmarks does.
func AffectedSuite(rep *Report, ch *changes.Result) ([]suite.Benchmark, []changes.Hit, error) {
	sel, err := SuiteBenchmarks(rep)
	if err != nil {
		return nil, nil, err
	}
	hits := changes.Affected(rep.Coverage, Benchmarks(rep, suiteIDs(rep)), ch)
	hit := make(map[string]bool, len(hits))
	for _, h := range hits {
		hit[h.ID] = true
	}
	for i, s := range rep.Suite.Steps {
		sel[i].Affected = hit[s.ID]
	}
	return sel, hits, nil
}

// suiteIDs returns the ids of rep's suite, in pick order.
func suiteIDs(rep *Report) []string {
	ids := make([]string, len(rep.Suite.Steps))
	for i, s := range rep.Suite.Steps {
		ids[i] = s.ID
	}
	return ids
}

// Benchmarks names the benchmarks with the given ids for
// changes.Affected: package and name from the collection manifest entry when
// there is one, else from an id of the form "<import path>.<BenchmarkName>",
// else the id alone (such a benchmark is affected only through its
// coverage set).
func Benchmarks(rep *Report, ids []string) []changes.Benchmark {
	out := make([]changes.Benchmark, len(ids))
	for i, id := range ids {
		pkg, name, _ := rep.benchmarkOf(id)
		out[i] = changes.Benchmark{ID: id, Package: pkg, Name: name}
	}
	return out
}
