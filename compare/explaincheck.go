package compare

import (
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/benchname"
)

// checkExplain checks, before anything is measured, that each name in
// Options.Explain can name a benchmark of the comparison: its top-level
// benchmark is one of requested (Options.Benchmarks as given, before a
// shard took its share) or, without them, of the units planned (before
// shardUnits). A full name ("BenchmarkQuery/sum") matches in any package,
// an id ("example.com/m/query.BenchmarkQuery/sum") in its own. Sub-benchmarks
// are known only once they run, so a name whose top-level benchmark exists
// passes. A name that matches nothing was a note after the whole run.
func (r *runner) checkExplain(requested []Benchmark) error {
	type top struct{ pkg, name string }
	var tops []top
	if len(requested) > 0 {
		for _, b := range requested {
			tops = append(tops, top{b.Package, benchname.Top(b.Name)})
		}
	} else {
		for _, u := range r.units {
			tops = append(tops, top{u.pkg, benchname.Top(u.name)})
		}
	}
	for _, n := range r.opt.Explain {
		ok := false
		for _, t := range tops {
			if benchname.Top(n) == t.name || strings.HasPrefix(n, t.pkg+".") && benchname.Top(strings.TrimPrefix(n, t.pkg+".")) == t.name {
				ok = true
				break
			}
		}
		if !ok {
			return mbopt.Field("Explain").Errorf("%q names no benchmark of this comparison: give a full name such as BenchmarkQuery/sum, or an id (import path, a dot, the full name) of a benchmark the comparison selects", n)
		}
	}
	return nil
}
