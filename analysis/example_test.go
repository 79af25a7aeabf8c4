package analysis_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mbopt/mbopt/analysis"
)

// Run is the whole analysis on files: the application profile, a
// directory of benchmark profiles (a benchmark's id is its file name), the
// minimal suite and two recommendations, as mbopt analyze prints them.
func ExampleRun() {
	rep, err := analysis.Run(context.Background(), analysis.Config{
		App:       []string{"../testdata/profiles/example/app.pprof"},
		Micro:     []string{"../testdata/profiles/example/micro"},
		Modules:   []string{"example.com/tinytsdb"},
		Recommend: 2,
	})
	if err != nil {
		log.Fatal(err)
	}
	cov := rep.Coverage
	fmt.Printf("%d benchmarks, %d skipped; project-only coverage %d/%d\n",
		len(cov.Sets), len(rep.Skipped), cov.Project.Covered, cov.Project.Total)
	for _, s := range rep.Suite.Steps {
		fmt.Printf("pick %-32s %+3d  project coverage %.1f%%\n", s.ID, s.Added, 100*s.CumulativeProject.Ratio)
	}
	for _, r := range rep.Recommendations.Recommendations {
		fmt.Printf("benchmark next: %s (+%d)\n", r.Function, r.AddedProject)
	}
	// Output:
	// 19 benchmarks, 0 skipped; project-only coverage 47/51
	// pick query__BenchmarkQuery            +32  project coverage 62.7%
	// pick httpapi__BenchmarkQueryHandler    +9  project coverage 80.4%
	// pick httpapi__BenchmarkWrite           +5  project coverage 90.2%
	// pick storage__BenchmarkSearch          +1  project coverage 92.2%
	// benchmark next: example.com/tinytsdb/httpapi.(*Server).handleHealth (+2)
	// benchmark next: example.com/tinytsdb/httpapi.intParam (+1)
}
