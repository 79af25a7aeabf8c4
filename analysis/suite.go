package analysis

import (
	"strings"

	"github.com/mbopt/mbopt/suite"
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
		if e, ok := rep.Entries[s.ID]; ok {
			out = append(out, suite.Benchmark{Package: e.Package, Dir: e.Dir, Name: e.Name})
			continue
		}
		pkg, name, ok := SplitID(s.ID)
		if !ok {
			return nil, inputf("cannot tell the package of benchmark %q: collect profiles with 'mbopt profile' (which writes manifest.json) or name each profile <import path>.<BenchmarkName>.pprof", s.ID)
		}
		out = append(out, suite.Benchmark{Package: pkg, Name: name})
	}
	return out, nil
}

// SplitID splits a benchmark id "<import path>.<BenchmarkName>[/<sub>...]"
// into the import path and the full benchmark name, at the first
// ".Benchmark" (sub-benchmark names may contain anything after it). It
// reports false when there is none or nothing precedes it.
func SplitID(id string) (pkg, name string, ok bool) {
	i := strings.Index(id, ".Benchmark")
	if i <= 0 || strings.Contains(id[:i], "/Benchmark") {
		return "", "", false
	}
	return id[:i], id[i+1:], true
}
