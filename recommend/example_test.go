package recommend_test

import (
	"fmt"
	"log"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/recommend"
)

// Additional recommends what to benchmark next for the example
// application and its whole suite of 19 benchmarks: each recommendation
// is the uncovered project function whose benchmark would cover the most
// uncovered project functions (those it calls, itself included).
func ExampleAdditional() {
	const dir = "../testdata/profiles/example"
	modules := []string{"example.com/tinytsdb"}
	app, err := callgraph.Load([]string{dir + "/app.pprof"}, callgraph.Options{Modules: modules})
	if err != nil {
		log.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "micro", "*.pprof"))
	if err != nil {
		log.Fatal(err)
	}
	var benches []coverage.Benchmark
	for _, f := range files {
		g, err := callgraph.Load([]string{f}, callgraph.Options{Modules: modules, NoEdges: true})
		if err != nil {
			log.Fatal(err)
		}
		benches = append(benches, coverage.Benchmark{ID: strings.TrimSuffix(filepath.Base(f), ".pprof"), Graph: g})
	}
	cov := coverage.Compute(app, benches)
	fmt.Printf("the suite covers %d of %d project functions\n", cov.Project.Covered, cov.Project.Total)

	// Start from what the suite covers; N 0 recommends until every project
	// function is covered.
	res := recommend.Additional(cov, cov.Covered, recommend.Options{})
	for i, r := range res.Recommendations {
		fmt.Printf("%d. %s: +%d project, +%d external, %.2fs; project coverage then %.1f%%\n",
			i+1, r.Function, r.AddedProject, r.AddedExternal, r.ImpactSeconds, 100*r.CumulativeProject.Ratio)
	}
	fmt.Println("project functions covered after all:", res.Covered.IntersectionLen(cov.ProjectMask))
	// Output:
	// the suite covers 47 of 51 project functions
	// 1. example.com/tinytsdb/httpapi.(*Server).handleHealth: +2 project, +0 external, 0.07s; project coverage then 96.1%
	// 2. example.com/tinytsdb/httpapi.intParam: +1 project, +0 external, 0.01s; project coverage then 98.0%
	// 3. example.com/tinytsdb/query.labelValue: +1 project, +0 external, 0.01s; project coverage then 100.0%
	// project functions covered after all: 51
}
