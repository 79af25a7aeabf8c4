package flow_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/flow"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/report"
)

// Run does what "mbopt run" does: here it drives the bundled example
// module's application workload for two seconds, profiles each of its
// benchmarks for 100ms and prints the analysis. The example compiles but is
// not run by go test (it profiles a module, about a minute; TestRunExample
// in cmd/mbopt runs the same flow).
func ExampleRun() {
	res, err := flow.Run(context.Background(), flow.Config{
		Collect:    collect.Config{Dir: "../../testdata/example", BenchTime: "100ms"},
		AppCommand: "go run ./cmd/appbench -duration 2s -cpuprofile {profile}",
		Logf:       func(format string, args ...any) { log.Printf(format, args...) },
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d benchmarks collected\n", len(res.Manifest.Benchmarks))
	if err := report.WriteText(os.Stdout, report.Build(res.Report), report.TextOptions{}); err != nil {
		log.Fatal(err)
	}
}

// A front end can replace the collection: here the Collector restores
// profiles collected earlier (the committed example's, as a CI job would
// restore them from a cache) into the output directory and records them in
// a manifest, and Run analyses them against the application profile.
func ExampleRun_collector() {
	out, err := os.MkdirTemp("", "mbopt-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(out)
	const cached = "../../testdata/profiles/example/micro"
	restore := func(ctx context.Context, cfg collect.Config) (*manifest.Manifest, error) {
		files, err := filepath.Glob(filepath.Join(cached, "*.pprof"))
		if err != nil {
			return nil, err
		}
		m := &manifest.Manifest{Module: "example.com/tinytsdb", BenchTime: "1s"}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			name := filepath.Base(f)
			if err := os.WriteFile(filepath.Join(cfg.Out, name), data, 0o644); err != nil {
				return nil, err
			}
			id := strings.TrimSuffix(name, ".pprof")
			m.Benchmarks = append(m.Benchmarks, manifest.Entry{ID: id, Name: id, Status: manifest.StatusOK, Profile: name})
		}
		return m, m.Write(cfg.Out)
	}
	res, err := flow.Run(context.Background(), flow.Config{
		Config:    analysis.Config{App: []string{"../../testdata/profiles/example/app.pprof"}},
		Collect:   collect.Config{Dir: "../../testdata/example", Out: out},
		Collector: restore,
	})
	if err != nil {
		log.Fatal(err)
	}
	cov := res.Report.Coverage
	fmt.Printf("%d benchmarks, project-only coverage %d/%d, minimal suite %d\n",
		len(res.Manifest.Benchmarks), cov.Project.Covered, cov.Project.Total, len(res.Report.Suite.Steps))
	// Output:
	// 19 benchmarks, project-only coverage 47/51, minimal suite 4
}

// NextSteps says where a Run put its profiles and how to analyse them again
// without profiling, with the flags given to run that suite and report take.
func ExampleResult_NextSteps() {
	res := &flow.Result{
		Manifest: &manifest.Manifest{Benchmarks: make([]manifest.Entry, 12)},
		Analysis: analysis.Config{App: []string{".mbopt/app/app.pprof"}, Micro: []string{".mbopt/profiles"}, Modules: []string{"example.com/db"}},
		Taken:    []flow.AppProfile{{Source: "AppCommand", File: ".mbopt/app/app.pprof", Log: ".mbopt/app/workload.log"}},
	}
	lines, commands := res.NextSteps(map[string][]string{"suite": {"--top=3"}}, ".")
	for _, l := range lines {
		fmt.Println(l)
	}
	for _, c := range commands {
		fmt.Println(" ", c)
	}
	// Output:
	// application profile: .mbopt/app/app.pprof (workload output: .mbopt/app/workload.log)
	// benchmark profiles: .mbopt/profiles (12 benchmarks)
	// to analyse these profiles again without profiling (from this directory):
	//   mbopt suite --app .mbopt/app/app.pprof --micro .mbopt/profiles --module example.com/db --top=3
	//   mbopt report --app .mbopt/app/app.pprof --micro .mbopt/profiles --module example.com/db --out .mbopt/report
}
