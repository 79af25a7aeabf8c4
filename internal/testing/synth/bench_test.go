package synth_test

// Performance benchmarks of mbopt's analysis on synthetic suites; run them
// with 'make bench' (scripts/bench.sh), which also summarises them.
//
//   - BenchmarkPipeline: coverage.Compute + optimize.Greedy +
//     recommend.Additional (n=20) on graphs built beforehand, at three
//     sizes up to a 50,000-node application with 5,000 benchmarks.
//   - BenchmarkInMemory: the same plus callgraph.New for the application
//     and every benchmark profile, from profiles held in memory.
//   - BenchmarkDeep: the pipeline, and recommend.Additional (n=20) alone,
//     on a 100,000-function application of deep call chains (up to about
//     260 calls from a root, samples truncated to 64 frames as the Go
//     runtime does) with 200 benchmarks: the case where one reach bitset
//     per function made recommendations quadratic in memory.
//   - BenchmarkEndToEnd: decode-only (profile.Parse of every file) and
//     analyze (analysis.Run) on a cached corpus of 1,000 gzipped benchmark
//     profiles (about 50 MB).
//
// Custom metrics: nodes/op is the input size (application nodes plus the
// nodes of every benchmark graph); input-MB the live heap of the input
// graphs (and profiles, for BenchmarkInMemory) before the timed part;
// peak-heap-MB and peak-sys-MB the largest heap (live and not yet
// collected objects) and the largest memory the Go runtime held from the
// OS (mapped, not released) while the timed part ran, sampled every 5 ms; cpu-ms/op the user and system CPU
// time the process used per op, a steadier figure than ns/op on a shared
// machine (it also counts the garbage collector's background work).

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/bitset"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/testing/synth"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/recommend"
)

// pipelineSizes are the synthetic instances, smallest first.
var pipelineSizes = []struct{ app, bench int }{
	{5000, 500},
	{20000, 2000},
	{50000, 5000},
}

// recommendN is the number of recommendations every benchmark asks for.
const recommendN = 20

// forEach calls f(k) for k in [0, n) on GOMAXPROCS goroutines.
func forEach(n int, f func(k int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				f(k)
			}
		}()
	}
	for k := range n {
		next <- k
	}
	close(next)
	wg.Wait()
}

// newGraph builds the graph of a generated profile. It panics on error,
// which would be a bug of package synth, since it runs on many goroutines.
func newGraph(s *synth.Suite, p *profile.Profile) *callgraph.Graph {
	g, err := callgraph.New(p, callgraph.Options{Modules: s.Modules()})
	if err != nil {
		panic(err)
	}
	return g
}

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
			app := newGraph(s, s.App())
			benches := make([]coverage.Benchmark, size.bench)
			forEach(size.bench, func(k int) {
				benches[k] = coverage.Benchmark{ID: s.Benchmarks()[k].ID, Graph: newGraph(s, s.Benchmark(k))}
			})
			nodes := inputNodes(app, benches)
			graphs := liveHeap()

			b.ReportAllocs()
			b.ResetTimer()
			peak := startPeak()
			var picks, recs int
			for b.Loop() {
				_, sel, rec := analyse(app, benches)
				picks, recs = len(sel.Steps), len(rec.Recommendations)
			}
			b.StopTimer()
			peak.report(b, graphs)
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
			profs := make([]*profile.Profile, size.bench)
			forEach(size.bench, func(k int) { profs[k] = s.Benchmark(k) })
			ids := make([]string, size.bench)
			for k, bm := range s.Benchmarks() {
				ids[k] = bm.ID
			}
			inputs := liveHeap()

			b.ReportAllocs()
			b.ResetTimer()
			peak := startPeak()
			var nodes int
			for b.Loop() {
				app := newGraph(s, appProf)
				benches := make([]coverage.Benchmark, len(profs))
				for k, p := range profs {
					benches[k] = coverage.Benchmark{ID: ids[k], Graph: newGraph(s, p)}
				}
				analyse(app, benches)
				nodes = inputNodes(app, benches)
			}
			b.StopTimer()
			peak.report(b, inputs)
			b.ReportMetric(float64(nodes), "nodes/op")
			runtime.KeepAlive(profs)
		})
	}
}

// deepConfig is BenchmarkDeep's instance: 100,000 application functions,
// nine in ten extending the previous function's call chain.
var deepConfig = synth.Config{Seed: 1, AppNodes: 100000, Benchmarks: 200, Chain: 0.9, MaxStack: 64}

// BenchmarkDeep times, on graphs and coverage built outside the timer, the
// pipeline (coverage, minimal suite, 20 recommendations) and
// recommend.Additional alone, on the deep 100,000-function application
// of deepConfig: from the suite's coverage, and from nothing covered (the
// largest universe, every function a candidate). input-MB is the live
// heap of the graphs (and, for recommend, the coverage result) that
// peak-heap-MB includes.
func BenchmarkDeep(b *testing.B) {
	s := synth.New(deepConfig)
	app := newGraph(s, s.App())
	benches := make([]coverage.Benchmark, deepConfig.Benchmarks)
	forEach(len(benches), func(k int) {
		benches[k] = coverage.Benchmark{ID: s.Benchmarks()[k].ID, Graph: newGraph(s, s.Benchmark(k))}
	})
	nodes := inputNodes(app, benches)
	depth := 0
	for _, d := range app.RootDistance() {
		depth = max(depth, d)
	}
	b.Run("pipeline", func(b *testing.B) {
		graphs := liveHeap()
		b.ReportAllocs()
		peak := startPeak()
		var recs int
		for b.Loop() {
			_, _, rec := analyse(app, benches)
			recs = len(rec.Recommendations)
		}
		b.StopTimer()
		peak.report(b, graphs)
		b.ReportMetric(float64(nodes), "nodes/op")
		b.ReportMetric(float64(recs), "recs")
		b.ReportMetric(float64(app.Len()), "app-nodes")
		b.ReportMetric(float64(depth), "max-depth")
		b.ReportMetric(float64(len(benches)), "benchmarks")
	})
	cov := coverage.Compute(app, benches)
	for _, from := range []struct {
		name    string
		covered bitset.Set
	}{
		{"suite", cov.Covered},
		{"nothing", bitset.New(app.Len())},
	} {
		b.Run("recommend/from="+from.name, func(b *testing.B) {
			inputs := liveHeap()
			b.ReportAllocs()
			peak := startPeak()
			var rec *recommend.Result
			for b.Loop() {
				rec = recommend.Additional(cov, from.covered, recommend.Options{N: recommendN})
			}
			b.StopTimer()
			peak.report(b, inputs)
			b.ReportMetric(float64(nodes), "nodes/op")
			b.ReportMetric(float64(len(rec.Recommendations)), "recs")
			b.ReportMetric(float64(app.Len()-from.covered.Len()), "uncovered")
		})
	}
	runtime.KeepAlive(benches)
}

// corpusConfig is the end-to-end corpus: 1,000 benchmark profiles of about
// 50 KB each (50 MB), exercising 200 to 4,000 functions of a 30,000-node
// application.
var corpusConfig = synth.Config{Seed: 1, AppNodes: 30000, Benchmarks: 1000, MinBenchNodes: 200, MaxBenchNodes: 4000}

// corpus returns the files of corpusConfig, written once under
// os.TempDir() and reused by later runs (regenerated if incomplete).
func corpus(b *testing.B) *synth.Files {
	key := sha256.Sum256(fmt.Appendf(nil, "v%d %+v", synth.Version, corpusConfig))
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("mbopt-bench-corpus-%x", key[:6]))
	s := synth.New(corpusConfig)
	fs := &synth.Files{App: filepath.Join(dir, "app.pprof"), MicroDir: filepath.Join(dir, "micro")}
	complete := true
	for _, bm := range s.Benchmarks() {
		path := filepath.Join(fs.MicroDir, bm.ID+".pprof")
		st, err := os.Stat(path)
		if err != nil {
			complete = false
			break
		}
		fs.Micro = append(fs.Micro, path)
		fs.MicroBytes += st.Size()
	}
	if _, err := os.Stat(filepath.Join(dir, "complete")); err == nil && complete {
		return fs
	}
	b.Logf("writing the benchmark corpus to %s", dir)
	start := time.Now()
	tmp, err := os.MkdirTemp(os.TempDir(), "mbopt-bench-corpus-tmp-")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.WriteDir(tmp, 0); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "complete"), nil, 0o644); err != nil {
		b.Fatal(err)
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		// Another run may have just written it.
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(dir, "complete")); serr != nil {
			b.Fatal(err)
		}
	}
	b.Logf("corpus written in %v", time.Since(start).Round(time.Millisecond))
	return corpus(b)
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
		peak := startPeak()
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
		peak.report(b, 0)
		b.ReportMetric(float64(len(files)), "files")
	})
	b.Run("analyze", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		peak := startPeak()
		var rep *analysis.Report
		for b.Loop() {
			var err error
			rep, err = analysis.Run(context.Background(), analysis.Config{
				App:       []string{fs.App},
				Micro:     []string{fs.MicroDir},
				Modules:   synth.New(corpusConfig).Modules(),
				Recommend: recommendN,
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		peak.report(b, 0)
		b.ReportMetric(float64(len(files)), "files")
		b.ReportMetric(float64(len(rep.Suite.Steps)), "picks")
	})
}

func inputNodes(app *callgraph.Graph, benches []coverage.Benchmark) int {
	n := app.Len()
	for _, bm := range benches {
		n += bm.Graph.Len()
	}
	return n
}

var memMetrics = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/total:bytes", "/memory/classes/heap/released:bytes"}

// liveHeap collects garbage and returns the bytes of live heap objects.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: memMetrics[0]}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// peak samples the heap and the memory the runtime holds from the OS
// (mapped and not released: about its share of the RSS) every 5 ms until
// report.
type peak struct {
	stop        chan struct{}
	done        chan struct{}
	heap, total uint64
	cpu         time.Duration
}

// cpuTime returns the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startPeak() *peak {
	p := &peak{stop: make(chan struct{}), done: make(chan struct{}), cpu: cpuTime()}
	go func() {
		defer close(p.done)
		s := []metrics.Sample{{Name: memMetrics[0]}, {Name: memMetrics[1]}, {Name: memMetrics[2]}}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			p.heap = max(p.heap, s[0].Value.Uint64())
			p.total = max(p.total, s[1].Value.Uint64()-s[2].Value.Uint64())
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// report stops sampling and reports the peaks, and inputs (the live heap
// before the timed part) when not 0, in MB.
func (p *peak) report(b *testing.B, inputs uint64) {
	cpu := cpuTime() - p.cpu
	close(p.stop)
	<-p.done
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	const mb = 1 << 20
	if inputs > 0 {
		b.ReportMetric(float64(inputs)/mb, "input-MB")
	}
	b.ReportMetric(float64(p.heap)/mb, "peak-heap-MB")
	b.ReportMetric(float64(p.total)/mb, "peak-sys-MB")
}
