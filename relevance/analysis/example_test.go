package analysis_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// Run is the whole analysis on files: the application profile, a
// directory of benchmark profiles (a benchmark's id is its file name), the
// minimal suite and two recommendations, as mbopt analyze prints them.
func ExampleRun() {
	rep, err := analysis.Run(context.Background(), analysis.Config{
		App:       []string{"../../testdata/profiles/example/app.pprof"},
		Micro:     []string{"../../testdata/profiles/example/micro"},
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

// Inputs lists the files an analysis reads, so that a front end can refuse
// to write its output over one of them.
func ExampleConfig_Inputs() {
	cfg := analysis.Config{
		App:   []string{"../../testdata/profiles/example/app.pprof"},
		Micro: []string{"../../testdata/profiles/example/micro"},
	}
	inputs := cfg.Inputs()
	fmt.Println(len(inputs), "files:")
	for _, f := range inputs[:3] {
		fmt.Println(f)
	}
	// Output:
	// 21 files:
	// ../../testdata/profiles/example/app.pprof
	// ../../testdata/profiles/example/micro
	// ../../testdata/profiles/example/micro/backup__BenchmarkRestore.pprof
}

// ParseApps reads application profiles as a command line gives them: named
// scenarios, one of them weighted with the short form FILE:WEIGHT.
func ExampleParseApps() {
	files, scenarios, err := analysis.ParseApps([]string{"ingest=ingest.pprof", "query=query.pprof:2"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(files)
	for _, sc := range scenarios {
		fmt.Println(sc.Name, sc.Files, sc.Weight, sc.Weighted)
	}
	// Output:
	// [ingest.pprof query.pprof]
	// ingest [ingest.pprof] 0 false
	// query [query.pprof] 2 true
}

// Options are an analysis's settings as a command line gives them; Config
// checks them and names the Config field at fault, which a command line
// words with its flag (mbopt: --nodes).
func ExampleOptions_Config() {
	o := analysis.Options{App: []string{"app.pprof"}, Micro: []string{"profiles"}, Nodes: "project", Impact: "attributed",
		Targets: "callable", Edges: "sampled", Objective: "cost", Budget: 90 * time.Second, Recommend: 5}
	cfg, err := o.Config(true)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg.Nodes, cfg.Select.Objective, cfg.Select.Budget, cfg.Recommend)
	o.Nodes = "some"
	_, err = o.Config(true)
	var ie *mbopt.Error
	fmt.Println(errors.As(err, &ie), string(ie.Field))
	// Output:
	// project cost 90 5
	// true Nodes
}
