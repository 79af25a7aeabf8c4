package analysis_test

// Performance benchmarks of the analysis on synthetic suites (package
// testkit/synth); 'make bench' (scripts/bench.sh) runs them with
// recommend's and optimize's and summarises them.
//
//   - BenchmarkPipeline: coverage.Compute + optimize.Greedy +
//     recommend.Additional (n=20) on graphs built beforehand, at three
//     sizes up to a 50,000-node application with 5,000 benchmarks.
//   - BenchmarkInMemory: the same plus callgraph.New for the application
//     and every benchmark profile, from profiles held in memory.
//   - BenchmarkDeep: the pipeline on the deep 100,000-function application
//     of synth.Deep (recommend's BenchmarkDeep times recommend.Additional
//     alone on it).
//   - BenchmarkEndToEnd: decode-only (profile.Parse of every file) and
//     analyze (analysis.Run) on a cached corpus of 1,000 gzipped benchmark
//     profiles (about 50 MB).
//
// Custom metrics: nodes/op is the input size (application nodes plus the
// nodes of every benchmark graph); input-MB, peak-heap-MB, peak-sys-MB and
// cpu-ms/op are package testkit/perf's.

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/testkit/perf"
	"github.com/mbopt/mbopt/testkit/synth"
)

// pipelineSizes are the synthetic instances, smallest first.
var pipelineSizes = []struct{ app, bench int }{
	{5000, 500},
	{20000, 2000},
	{50000, 5000},
}

// recommendN is the number of recommendations every benchmark asks for.
const recommendN = 20

// analyse is the timed pipeline: coverage, minimal suite, recommendations.
func analyse(app *callgraph.Graph, benches []coverage.Benchmark) (*coverage.Result, *optimize.Result, *recommend.Result) {
	cov := coverage.Compute(app, benches)
	sel := optimize.Greedy(cov, optimize.Options{Nodes: optimize.ProjectNodes})
	rec := recommend.Additional(cov, cov.Covered, recommend.Options{N: recommendN})
	return cov, sel, rec
}

// BenchmarkPipeline times coverage.Compute, optimize.Greedy and
// recommend.Additional on graphs built outside the timer.
func BenchmarkPipeline(b *testing.B) {
	for _, size := range pipelineSizes {
		b.Run(fmt.Sprintf("app=%d,bench=%d", size.app, size.bench), func(b *testing.B) {
			s := synth.New(synth.Config{Seed: 1, AppNodes: size.app, Benchmarks: size.bench})
			app, benches := s.Graphs()
			nodes := synth.Nodes(app, benches)
			graphs := perf.LiveHeap()

			b.ReportAllocs()
			b.ResetTimer()
			peak := perf.Start()
			var picks, recs int
			for b.Loop() {
				_, sel, rec := analyse(app, benches)
				picks, recs = len(sel.Steps), len(rec.Recommendations)
			}
			b.StopTimer()
			peak.Report(b, graphs)
			b.ReportMetric(float64(nodes), "nodes/op")
			b.ReportMetric(float64(picks), "picks")
			b.ReportMetric(float64(recs), "recs")
			runtime.KeepAlive(benches)
		})
	}
}

// BenchmarkInMemory times the whole in-memory analysis: callgraph.New for
// the application and every benchmark profile, then the pipeline.
func BenchmarkInMemory(b *testing.B) {
	for _, size := range pipelineSizes {
		b.Run(fmt.Sprintf("app=%d,bench=%d", size.app, size.bench), func(b *testing.B) {
			s := synth.New(synth.Config{Seed: 1, AppNodes: size.app, Benchmarks: size.bench})
			appProf := s.App()
			profs := s.Profiles()
			ids := make([]string, size.bench)
			for k, bm := range s.Benchmarks() {
				ids[k] = bm.ID
			}
			inputs := perf.LiveHeap()

			b.ReportAllocs()
			b.ResetTimer()
			peak := perf.Start()
			var nodes int
			for b.Loop() {
				app := s.Graph(appProf)
				benches := make([]coverage.Benchmark, len(profs))
				for k, p := range profs {
					benches[k] = coverage.Benchmark{ID: ids[k], Graph: s.Graph(p)}
				}
				analyse(app, benches)
				nodes = synth.Nodes(app, benches)
			}
			b.StopTimer()
			peak.Report(b, inputs)
			b.ReportMetric(float64(nodes), "nodes/op")
			runtime.KeepAlive(profs)
		})
	}
}

// BenchmarkDeep times, on graphs built outside the timer, the pipeline
// (coverage, minimal suite, 20 recommendations) on the deep
// 100,000-function application of synth.Deep: the case where one reach
// bitset per function made recommendations quadratic in memory. input-MB
// is the live heap of the graphs that peak-heap-MB includes.
func BenchmarkDeep(b *testing.B) {
	s := synth.New(synth.Deep)
	app, benches := s.Graphs()
	nodes := synth.Nodes(app, benches)
	depth := 0
	for _, d := range app.RootDistance() {
		depth = max(depth, d)
	}
	b.Run("pipeline", func(b *testing.B) {
		graphs := perf.LiveHeap()
		b.ReportAllocs()
		peak := perf.Start()
		var recs int
		for b.Loop() {
			_, _, rec := analyse(app, benches)
			recs = len(rec.Recommendations)
		}
		b.StopTimer()
		peak.Report(b, graphs)
		b.ReportMetric(float64(nodes), "nodes/op")
		b.ReportMetric(float64(recs), "recs")
		b.ReportMetric(float64(app.Len()), "app-nodes")
		b.ReportMetric(float64(depth), "max-depth")
		b.ReportMetric(float64(len(benches)), "benchmarks")
	})
	runtime.KeepAlive(benches)
}

// corpus returns the files of synth.CorpusConfig, written once under
// os.TempDir() as mbopt-bench-corpus-<hash> and reused by later runs and
// by scripts/bench.sh (see synth.Cached and testkit/corpus).
func corpus(b *testing.B) *synth.Files {
	fs, err := synth.Cached(os.TempDir(), synth.CorpusConfig)
	if err != nil {
		b.Fatal(err)
	}
	return fs
}

// BenchmarkEndToEnd compares decoding every file of the corpus with
// profile.Parse (one goroutine, the floor) with analysis.Run on the same
// files (parallel decoding, graphs, coverage, minimal suite and 20
// recommendations). Both run in one process so their ratio holds on a
// noisy machine.
func BenchmarkEndToEnd(b *testing.B) {
	fs := corpus(b)
	files := append([]string{fs.App}, fs.Micro...)
	var size int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	b.Run("decode-only", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		peak := perf.Start()
		for b.Loop() {
			for _, f := range files {
				r, err := os.Open(f)
				if err != nil {
					b.Fatal(err)
				}
				_, err = profile.Parse(r)
				r.Close()
				if err != nil {
					b.Fatal(err)
				}
			}
		}
		b.StopTimer()
		peak.Report(b, 0)
		b.ReportMetric(float64(len(files)), "files")
	})
	b.Run("analyze", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		peak := perf.Start()
		var rep *analysis.Report
		for b.Loop() {
			var err error
			rep, err = analysis.Run(context.Background(), analysis.Config{
				App:       []string{fs.App},
				Micro:     []string{fs.MicroDir},
				Modules:   synth.New(synth.CorpusConfig).Modules(),
				Recommend: recommendN,
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		peak.Report(b, 0)
		b.ReportMetric(float64(len(files)), "files")
		b.ReportMetric(float64(len(rep.Suite.Steps)), "picks")
	})
}
