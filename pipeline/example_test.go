package pipeline_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/mbopt/mbopt/collect"
	"github.com/mbopt/mbopt/pipeline"
	"github.com/mbopt/mbopt/report"
)

// Run does what "mbopt run" does: here it drives the bundled example
// module's application workload for two seconds, profiles each of its
// benchmarks for 100ms and prints the analysis. The example compiles but is
// not run by go test (it profiles a module, about a minute; TestRunExample
// in cmd/mbopt runs the same pipeline).
func ExampleRun() {
	res, err := pipeline.Run(context.Background(), pipeline.Config{
		Collect:    collect.Config{Dir: "../testdata/example", BenchTime: "100ms"},
		AppCommand: "go run ./cmd/appbench -duration 2s -cpuprofile {profile}",
		Logf:       func(format string, args ...any) { log.Printf(format, args...) },
		Stderr:     os.Stderr,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d benchmarks collected\n", len(res.Manifest.Benchmarks))
	if err := report.WriteText(os.Stdout, report.Build(res.Report), report.TextOptions{}); err != nil {
		log.Fatal(err)
	}
}
