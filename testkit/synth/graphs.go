package synth

import (
	"runtime"
	"sync"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
)

// Deep is the deep instance of the performance benchmarks (BenchmarkDeep
// in packages analysis and recommend): 100,000 application functions, nine
// in ten extending the previous function's call chain (up to about 260
// calls from a root), samples truncated to 64 frames as the Go runtime
// does, and 200 benchmarks.
var Deep = Config{Seed: 1, AppNodes: 100000, Benchmarks: 200, Chain: 0.9, MaxStack: 64}

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

// Graph builds the call graph of p, one of the suite's profiles, with the
// suite's module as the project. It panics on error, which would be a bug
// of this package (its profiles are valid), since callers run it on many
// goroutines.
func (s *Suite) Graph(p *profile.Profile) *callgraph.Graph {
	g, err := callgraph.New(p, callgraph.Options{Modules: s.Modules()})
	if err != nil {
		panic(err)
	}
	return g
}

// Profiles returns every benchmark's profile, in benchmark order,
// generated on GOMAXPROCS goroutines.
func (s *Suite) Profiles() []*profile.Profile {
	profs := make([]*profile.Profile, len(s.benches))
	forEach(len(profs), func(k int) { profs[k] = s.Benchmark(k) })
	return profs
}

// Graphs returns the graph of the application profile and the benchmarks
// as coverage takes them (id and graph, in benchmark order), building the
// graphs on GOMAXPROCS goroutines.
func (s *Suite) Graphs() (*callgraph.Graph, []coverage.Benchmark) {
	app := s.Graph(s.App())
	benches := make([]coverage.Benchmark, len(s.benches))
	forEach(len(benches), func(k int) {
		benches[k] = coverage.Benchmark{ID: s.benches[k].ID, Graph: s.Graph(s.Benchmark(k))}
	})
	return app, benches
}

// Nodes returns the input size of an analysis: the nodes of the
// application graph plus those of every benchmark graph.
func Nodes(app *callgraph.Graph, benches []coverage.Benchmark) int {
	n := app.Len()
	for _, bm := range benches {
		n += bm.Graph.Len()
	}
	return n
}
