package collect_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// Every benchmark is identified by its package path and full name, and its
// profile file name is derived from both, so equal names in different
// packages never collide.
func ExampleFileName() {
	mod := "example.com/tinytsdb"
	for _, b := range []struct{ pkg, name string }{
		{mod + "/encoding", "BenchmarkEncode/n=100"},
		{mod + "/storage", "BenchmarkEncode/n=100"},
	} {
		fmt.Println(benchname.ID(b.pkg, b.name))
		fmt.Println(manifest.ProfileName(mod, b.pkg, b.name))
	}
	// Output:
	// example.com/tinytsdb/encoding.BenchmarkEncode/n=100
	// encoding.BenchmarkEncode_n=100-053385d3.pprof
	// example.com/tinytsdb/storage.BenchmarkEncode/n=100
	// storage.BenchmarkEncode_n=100-5c323799.pprof
}

// Collect profiles every benchmark of the module in the current directory;
// the Progress hook logs each finished benchmark.
func ExampleCollect() {
	m, err := collect.Collect(context.Background(), collect.Config{
		Out:       "profiles",
		BenchTime: "1s",
		Progress: func(ev collect.Event) {
			if ev.Kind == collect.EventFinish {
				fmt.Fprintf(os.Stderr, "[%d/%d] %s %s\n", ev.Done, ev.Total, ev.Entry.Status, ev.Entry.ID)
			}
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range m.Problems() {
		fmt.Printf("%s: %s: %s\n", e.ID, e.Status, e.Error)
	}
}

// Succeeded says whether a collection gave an analysis what it needs: a
// collection where one of two benchmarks failed succeeded, unless the caller
// is strict.
func ExampleSucceeded() {
	m := &manifest.Manifest{Benchmarks: []manifest.Entry{
		{ID: "example.com/m.BenchmarkA", Status: manifest.StatusOK},
		{ID: "example.com/m.BenchmarkB", Status: manifest.StatusFailed},
	}}
	fmt.Println(collect.Succeeded(m, "profiles", false))
	fmt.Println(collect.Succeeded(m, "profiles", true))
	m.Benchmarks[0].Status = manifest.StatusTimeout
	fmt.Println(collect.Succeeded(m, "profiles", false))
	// Output:
	// <nil>
	// Config.Strict: 1 of 2 benchmarks did not succeed
	// no benchmark was profiled (logs in profiles/logs)
}

// Check finds what no collection could use before anything runs; the
// errors name the Config field at fault.
func ExampleConfig_Check() {
	for _, cfg := range []collect.Config{
		{Out: "profiles", BenchTime: "fast"},
		{Out: "profiles", Jobs: -1},
		{Out: "profiles", BenchTime: "100x", Bench: "Query"},
	} {
		fmt.Println(cfg.Check())
	}
	// Output:
	// invalid value "fast": want a positive duration such as 1s or an iteration count such as 100x
	// Config.Jobs must be 0 (one per CPU) or a positive count, not -1
	// <nil>
}
