package compare

import (
	"strings"

	"github.com/mbopt/mbopt/internal/benchname"
)

// checkExplain checks, before anything is measured, that each name in
// explain (Options.Explain) can name a benchmark of the comparison: its
// top-level benchmark is one of tops (Options.Benchmarks as given, before
// a shard took its share, or, without them, the benchmarks planned, before
// a shard takes its share). A full name ("BenchmarkQuery/sum") matches in
// any package, an id ("example.com/m/query.BenchmarkQuery/sum") in its
// own. Sub-benchmarks are known only once they run, so a name whose
// top-level benchmark exists passes. A name that matches nothing was a
// note after the whole run.
func checkExplain(explain []string, tops []Benchmark) error {
	for _, n := range explain {
		ok := false
		for _, b := range tops {
			t := benchname.Top(b.Name)
			if benchname.Top(n) == t || strings.HasPrefix(n, b.Package+".") && benchname.Top(strings.TrimPrefix(n, b.Package+".")) == t {
				ok = true
				break
			}
		}
		if !ok {
			return FieldExplain.Errorf("%q names no benchmark of this comparison: give a full name such as BenchmarkQuery/sum, or an id (import path, a dot, the full name) of a benchmark the comparison selects", n)
		}
	}
	return nil
}
