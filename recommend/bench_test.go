package recommend_test

import (
	"runtime"
	"testing"

	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/testkit/perf"
	"github.com/mbopt/mbopt/testkit/synth"
)

// BenchmarkDeep times recommend.Additional (n=20) alone on the deep
// 100,000-function application of synth.Deep (call chains up to about 260
// calls from a root, 200 benchmarks), with graphs and coverage built
// outside the timer: from the suite's coverage, and from nothing covered
// (the largest universe, every function a candidate). It is the case where
// one reach bitset per function made recommendations quadratic in memory;
// analysis's BenchmarkDeep times the whole pipeline on the same instance.
// 'make bench' (scripts/bench.sh) runs and summarises both. input-MB is
// the live heap of the graphs and the coverage result that peak-heap-MB
// includes (see package testkit/perf for the metrics).
func BenchmarkDeep(b *testing.B) {
	s := synth.New(synth.Deep)
	app, benches := s.Graphs()
	nodes := synth.Nodes(app, benches)
	cov := coverage.Compute(app, benches)
	for _, from := range []struct {
		name    string
		covered bitset.Set
	}{
		{"suite", cov.Covered},
		{"nothing", bitset.New(app.Len())},
	} {
		b.Run("recommend/from="+from.name, func(b *testing.B) {
			inputs := perf.LiveHeap()
			b.ReportAllocs()
			peak := perf.Start()
			var rec *recommend.Result
			for b.Loop() {
				rec = recommend.Additional(cov, from.covered, recommend.Options{N: 20})
			}
			b.StopTimer()
			peak.Report(b, inputs)
			b.ReportMetric(float64(nodes), "nodes/op")
			b.ReportMetric(float64(len(rec.Recommendations)), "recs")
			b.ReportMetric(float64(app.Len()-from.covered.Len()), "uncovered")
		})
	}
	runtime.KeepAlive(benches)
}
