package plot_test

import (
	"fmt"

	"github.com/mbopt/mbopt/report/plot"
)

// Benchmark ids are drawn relative to the import path their packages
// share, each package keeping its last element.
func ExampleIDLabels() {
	labels, prefix := plot.IDLabels([]string{
		"example.com/tinytsdb/internal/storage.BenchmarkAdd",
		"example.com/tinytsdb/query.BenchmarkSelect/rows=1000",
	})
	fmt.Println(prefix)
	for _, l := range labels {
		fmt.Println(l)
	}
	// Output:
	// example.com/tinytsdb
	// internal/storage.BenchmarkAdd
	// query.BenchmarkSelect/rows=1000
}
