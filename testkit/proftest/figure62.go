package proftest

import (
	"fmt"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
)

// Figure62Module is the module path of the Figure 6.2 fixture's project
// nodes.
const Figure62Module = "example.com/fig"

// Figure62Name returns the function name of node n (1..19) of the Figure 6.2
// fixture.
func Figure62Name(n int) string {
	if figure62Project[n] {
		return fmt.Sprintf("%s/app.F%d", Figure62Module, n)
	}
	return fmt.Sprintf("lib.org/ext.F%d", n)
}

// figure62Project lists the fixture's 10 project nodes.
var figure62Project = map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 14: true, 17: true}

// Figure62 returns the application profile and the two benchmark profiles
// of the worked example in Grambow's dissertation (2024), Figure 6.2,
// section 6.2.1.
//
// The figure itself is not in the text we have, so this is a graph
// consistent with everything the text says about it: 19 application nodes
// numbered 1 to 19; two entry points, 1 and 8 (the only nodes without
// callers); 10 project nodes (1–8, 14, 17) and 9 external ones; a cycle
// (3 → 5 → 6 → 3, as recursion would make); benchmark 1 covering two
// application nodes (4, 14) and benchmark 2 covering four (2, 7, 17 and the
// external 11), so project-only coverage is 5/10 and overall 6/19; node 3 is
// uncovered and reaches the uncovered project nodes 5 and 6 and the
// external node 12, so its Algorithm 3 set is {3, 5, 6}; and nodes 14 and
// 17 are covered, so a third benchmark covering just them is redundant.
//
// Application edges: 1→2 1→3 1→4 2→7 2→11 3→5 3→12 5→6 6→3 6→16 4→13
// 4→14 14→17 7→17 8→9 8→10 8→17 9→15 10→18 18→19. Every stack takes 10ms
// per node on it, so each node's flat time is 10ms per stack it ends.
func Figure62() (app, bench1, bench2 *profile.Profile) {
	path := func(nodes ...int) Stack {
		s := Stack{Nanos: 10_000_000}
		for _, n := range nodes {
			s.Frames = append(s.Frames, Figure62Name(n))
		}
		return s
	}
	app = Profile(
		path(1, 2, 7, 17),
		path(1, 2, 11),
		path(1, 3, 5, 6, 3, 12),
		path(1, 3, 5, 6, 16),
		path(1, 4, 13),
		path(1, 4, 14, 17),
		path(8, 9, 15),
		path(8, 10, 18, 19),
		path(8, 17),
	)
	bench := func(name string, paths ...[]int) *profile.Profile {
		var stacks []Stack
		for _, p := range paths {
			s := path(p...)
			s.Frames = append([]string{"testing.(*B).runN", Figure62Module + "/app." + name}, s.Frames...)
			stacks = append(stacks, s)
		}
		return Profile(stacks...)
	}
	bench1 = bench("BenchmarkOne", []int{4, 14})
	bench2 = bench("BenchmarkTwo", []int{2, 7, 17}, []int{2, 11})
	return app, bench1, bench2
}

// Figure62Coverage returns the coverage of the Figure 6.2 application by its
// two benchmarks, with ids "benchmark1" and "benchmark2" and project module
// [Figure62Module].
func Figure62Coverage() *coverage.Result {
	app, b1, b2 := Figure62()
	opts := callgraph.Options{Modules: []string{Figure62Module}}
	graph := func(p *profile.Profile) *callgraph.Graph {
		g, err := callgraph.New(p, opts)
		if err != nil {
			panic("proftest: " + err.Error())
		}
		return g
	}
	return coverage.Compute(graph(app), []coverage.Benchmark{
		{ID: "benchmark1", Graph: graph(b1)},
		{ID: "benchmark2", Graph: graph(b2)},
	})
}
