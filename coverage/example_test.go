package coverage_test

import (
	"fmt"
	"log"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
)

// Compute compares the example application's call graph with three of its
// benchmarks' graphs: what each benchmark covers, its reference impact,
// and the suite's coverage. Benchmark graphs need no edges.
func ExampleCompute() {
	const dir = "../testdata/profiles/example"
	modules := []string{"example.com/tinytsdb"}
	app, err := callgraph.Load([]string{dir + "/app.pprof"}, callgraph.Options{Modules: modules})
	if err != nil {
		log.Fatal(err)
	}
	var benches []coverage.Benchmark
	for _, id := range []string{"storage__BenchmarkAddRows", "query__BenchmarkQuery", "encoding__BenchmarkDecode"} {
		g, err := callgraph.Load([]string{filepath.Join(dir, "micro", id+".pprof")},
			callgraph.Options{Modules: modules, NoEdges: true})
		if err != nil {
			log.Fatal(err)
		}
		benches = append(benches, coverage.Benchmark{ID: id, Graph: g})
	}

	cov := coverage.Compute(app, benches)
	for _, s := range cov.Sets { // sorted by ID
		fmt.Printf("%-26s covers %2d project and %3d application nodes of its %3d; impact %.2fs (%.1f%%)\n",
			s.ID, s.ProjectNodes, s.OverallNodes, s.GraphNodes, s.ImpactSeconds, 100*s.ImpactShare)
	}
	fmt.Printf("project-only coverage %d/%d (%.1f%%), overall %d/%d (%.1f%%)\n",
		cov.Project.Covered, cov.Project.Total, 100*cov.Project.Ratio,
		cov.Overall.Covered, cov.Overall.Total, 100*cov.Overall.Ratio)

	// The project functions of package httpapi no benchmark covers (node
	// ids follow the names' order, so this is sorted).
	for id, n := range app.Nodes {
		if n.Project && n.Package == "example.com/tinytsdb/httpapi" && !cov.Covered.Has(id) {
			fmt.Println("uncovered:", strings.TrimPrefix(n.Name, n.Package+"."))
		}
	}
	// Output:
	// encoding__BenchmarkDecode  covers  5 project and  17 application nodes of its  21; impact 4.90s (42.0%)
	// query__BenchmarkQuery      covers 32 project and 195 application nodes of its 306; impact 8.92s (76.5%)
	// storage__BenchmarkAddRows  covers  9 project and 104 application nodes of its 166; impact 2.48s (21.3%)
	// project-only coverage 35/51 (68.6%), overall 214/605 (35.4%)
	// uncovered: (*Server).ServeHTTP
	// uncovered: (*Server).handleHealth
	// uncovered: (*Server).handleQuery
	// uncovered: (*Server).handleWrite
	// uncovered: (*Server).queryParams
	// uncovered: intParam
}
