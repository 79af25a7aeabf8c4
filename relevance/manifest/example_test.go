package manifest_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/shard"
)

// A manifest, as mbopt profile writes it next to the profiles, records
// how collecting each benchmark ended; Problems lists the ones without a
// usable profile, and Costs gives the others' running time for a budget.
func ExampleRead() {
	const data = `{
  "version": 1,
  "module": "example.com/tinytsdb",
  "go_version": "go1.26.8",
  "goos": "linux",
  "goarch": "amd64",
  "benchtime": "1s",
  "benchmarks": [
    {"id": "example.com/tinytsdb/storage.BenchmarkAddRows", "package": "example.com/tinytsdb/storage",
     "dir": "storage", "name": "BenchmarkAddRows", "status": "ok",
     "profile": "storage.BenchmarkAddRows.pprof", "samples": 180, "wall_seconds": 2.4},
    {"id": "example.com/tinytsdb/query.BenchmarkQuery", "package": "example.com/tinytsdb/query",
     "dir": "query", "name": "BenchmarkQuery", "status": "timeout", "wall_seconds": 300,
     "error": "killed after 5m0s"}
  ]
}`
	m, err := manifest.Read(strings.NewReader(data), manifest.FileName)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Module, len(m.Benchmarks), "benchmarks,", m.Count(manifest.StatusOK), "ok")
	for _, e := range m.Problems() {
		fmt.Printf("%s: %s (%s)\n", e.ID, e.Status, e.Error)
	}
	fmt.Println(m.Costs())
	// Output:
	// example.com/tinytsdb 2 benchmarks, 1 ok
	// example.com/tinytsdb/query.BenchmarkQuery: timeout (killed after 5m0s)
	// map[example.com/tinytsdb/storage.BenchmarkAddRows:2.4]
}

// ProfileName derives a benchmark's profile file name from its package
// and name: readable, safe on every file system, and unique even where
// names differ only in characters a file name cannot hold.
func ExampleProfileName() {
	fmt.Println(manifest.ProfileName("example.com/tinytsdb", "example.com/tinytsdb/query", "BenchmarkQuery"))
	fmt.Println(manifest.ProfileName("example.com/tinytsdb", "example.com/tinytsdb/query", "BenchmarkQuery/sum(cpu)"))
	// Output:
	// query.BenchmarkQuery-d0b6a3d9.pprof
	// query.BenchmarkQuery_sum_cpu_-e17d8faa.pprof
}

// ShardCostsFor reads the costs that balance a sharded run; costs without
// a shard are bad input naming both settings.
func ExampleShardCostsFor() {
	costs, err := manifest.ShardCostsFor("", shard.Spec{})
	fmt.Println(costs, err)
	_, err = manifest.ShardCostsFor("profiles", shard.Spec{})
	fmt.Println(err)
	// Output:
	// map[] <nil>
	// Config.ShardCosts needs Config.Shard
}
