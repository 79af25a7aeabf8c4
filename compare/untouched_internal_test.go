package compare

import (
	"testing"

	"github.com/mbopt/mbopt/compare/benchstats"
)

func TestMarkUntouched(t *testing.T) {
	rs := []Result{
		{Package: "m/p", Name: "BenchmarkA/n=1", Verdict: benchstats.DefiniteRegression},
		{Package: "m/p", Name: "BenchmarkB", Verdict: benchstats.PotentialImprovement},
		{Package: "m/p", Name: "BenchmarkC", Verdict: benchstats.Unchanged},
		{Package: "m/q", Name: "BenchmarkA", Verdict: benchstats.DefiniteRegression},
	}
	if n := markUntouched(rs, nil); n != 0 || rs[0].Untouched {
		t.Fatalf("unknown affectedness marks nothing; got %d", n)
	}
	n := markUntouched(rs, map[string]bool{"m/p.BenchmarkA": true, "m/p.BenchmarkB": false})
	if n != 2 {
		t.Errorf("%d untouched detections, want 2 (m/p.BenchmarkB and m/q.BenchmarkA)", n)
	}
	want := []bool{false, true, true, true}
	for i, r := range rs {
		if r.Untouched != want[i] {
			t.Errorf("%s.%s: untouched %v, want %v", r.Package, r.Name, r.Untouched, want[i])
		}
	}
}
