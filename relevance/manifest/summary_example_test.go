package manifest_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/relevance/manifest"
)

// collection is a manifest with one benchmark of each outcome.
const collection = `{
  "version": 1,
  "module": "example.com/tinytsdb",
  "go_version": "go1.26.8", "goos": "linux", "goarch": "amd64", "benchtime": "1s",
  "benchmarks": [
    {"id": "example.com/tinytsdb/storage.BenchmarkAddRows", "package": "example.com/tinytsdb/storage",
     "dir": "storage", "name": "BenchmarkAddRows", "status": "ok",
     "profile": "storage.BenchmarkAddRows.pprof", "samples": 180, "wall_seconds": 2.4},
    {"id": "example.com/tinytsdb/query.BenchmarkQuery", "package": "example.com/tinytsdb/query",
     "dir": "query", "name": "BenchmarkQuery", "status": "timeout", "wall_seconds": 300,
     "error": "killed after 5m0s"},
    {"id": "example.com/tinytsdb/wal.BenchmarkAppend", "package": "example.com/tinytsdb/wal",
     "dir": "wal", "name": "BenchmarkAppend", "status": "build-failed", "error": "wal.go:3: syntax error\nmore"},
    {"id": "example.com/tinytsdb/wal.BenchmarkReplay", "package": "example.com/tinytsdb/wal",
     "dir": "wal", "name": "BenchmarkReplay", "status": "build-failed", "error": "wal.go:3: syntax error\nmore"}
  ]
}`

// The summary of a collection: its counts by status and its problems, the
// benchmarks of a package that did not build on one line.
func ExampleManifest_WriteProblems() {
	m, err := manifest.Read(strings.NewReader(collection), manifest.FileName)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Counts())
	m.WriteProblems(os.Stdout)
	// Output:
	// 1 ok, 1 timeout, 2 build-failed
	// 3 did not succeed:
	//   timeout       example.com/tinytsdb/query.BenchmarkQuery: killed after 5m0s
	//   build-failed  example.com/tinytsdb/wal (2 benchmarks): wal.go:3: syntax error
}

// ShardCosts reads the costs that balance the shards of a sharded run from a
// whole collection, given as its directory or its manifest file: the
// running times of the benchmarks with a profile.
func ExampleShardCosts() {
	dir, err := os.MkdirTemp("", "collection")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, manifest.FileName), []byte(collection), 0o644); err != nil {
		log.Fatal(err)
	}
	costs, err := manifest.ShardCosts(dir)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(costs)
	// Output:
	// map[example.com/tinytsdb/storage.BenchmarkAddRows:2.4]
}
