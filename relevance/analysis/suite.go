package analysis

import (
	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/suite"
)

// SuiteBenchmarks returns the minimal suite of rep (its Suite steps, in pick
// order) as benchmarks that package suite turns into go test invocations.
// A benchmark's package and name come from its collection manifest entry
// when there is one, else from an id of the form
// "<import path>.<BenchmarkName>[/<sub>...]". Ids of neither kind (such as
// hand-named "storage__BenchmarkX" files) cannot be run and give an error
// naming the first one.
func SuiteBenchmarks(rep *Report) ([]suite.Benchmark, error) {
	var out []suite.Benchmark
	for _, s := range rep.Suite.Steps {
		pkg, name, ok := rep.benchmarkOf(s.ID)
		if !ok {
			return nil, mbopt.Errorf("cannot tell the package of benchmark %q: collect profiles with 'mbopt profile' (which writes manifest.json) or name each profile <import path>.<BenchmarkName>.pprof", s.ID)
		}
		out = append(out, suite.Benchmark{Package: pkg, Dir: rep.Entries[s.ID].Dir, Name: name})
	}
	return out, nil
}
