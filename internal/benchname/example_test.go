package benchname_test

import (
	"fmt"
	"log"

	"github.com/mbopt/mbopt/internal/benchname"
)

// A benchmark's id joins its package path and full name; SplitID takes it
// apart again, even when the name contains dots or slashes.
func ExampleSplitID() {
	id := benchname.ID("example.com/tinytsdb/query", "BenchmarkQuery/sum(cpu.user)")
	fmt.Println(id)
	pkg, name, ok := benchname.SplitID(id)
	fmt.Println(pkg, name, ok)
	_, _, ok = benchname.SplitID("query__BenchmarkQuery") // a file-name id has no package
	fmt.Println(ok)
	// Output:
	// example.com/tinytsdb/query.BenchmarkQuery/sum(cpu.user)
	// example.com/tinytsdb/query BenchmarkQuery/sum(cpu.user) true
	// false
}

// Pattern builds a -bench pattern that selects exactly the named
// benchmarks, quoting regexp metacharacters.
func ExamplePattern() {
	fmt.Println(benchname.Pattern([]string{"BenchmarkQuery/sum(cpu)", "BenchmarkQuery/avg_by_host", "BenchmarkSelect"}))
	// Output:
	// ^BenchmarkQuery$/^(avg_by_host|sum\(cpu\))$|^BenchmarkSelect$
}

// A Filter applies go test's -bench matching rules to benchmark names.
func ExampleCompileFilter() {
	f, err := benchname.CompileFilter("Query/sum")
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"BenchmarkQuery/sum(cpu)", "BenchmarkQuery/avg_by_host", "BenchmarkSelect"} {
		fmt.Println(name, f.Selects(name))
	}
	// Output:
	// BenchmarkQuery/sum(cpu) true
	// BenchmarkQuery/avg_by_host false
	// BenchmarkSelect false
}
