package collect_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/mbopt/mbopt/relevance/collect"
)

// Discover finds the packages with benchmarks of the example module
// (testdata/example, module example.com/tinytsdb) without building them:
// the first step of Collect, and what mbopt profile lists before it runs
// anything.
func ExampleDiscover() {
	pkgs, err := collect.Discover(context.Background(), collect.Config{Dir: "../../testdata/example"})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range pkgs { // sorted by import path
		fmt.Printf("%s: %s\n", strings.TrimPrefix(p.Path, p.Module+"/"), strings.Join(p.Benchmarks, " "))
	}
	// Output:
	// backup: BenchmarkRestore BenchmarkSnapshot
	// encoding: BenchmarkDecode BenchmarkEncode BenchmarkMarshalValues BenchmarkParse BenchmarkParseLine
	// httpapi: BenchmarkQueryHandler BenchmarkWrite
	// query: BenchmarkEncode BenchmarkParse BenchmarkQuery BenchmarkSelect
	// storage: BenchmarkAddRows BenchmarkAddRowsBatch BenchmarkCompact BenchmarkReadRange BenchmarkRetention BenchmarkSearch
}
