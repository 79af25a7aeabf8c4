package analysis_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mbopt/mbopt/relevance/analysis"
)

// Impacts gives the comparison of two revisions what each benchmark means
// for the application: its share of the application's CPU time and the
// project functions it covers.
func ExampleImpacts() {
	rep, err := analysis.Run(context.Background(), analysis.Config{
		App:     []string{"../../testdata/profiles/example/app.pprof"},
		Micro:   []string{"../../testdata/profiles/example/micro"},
		Modules: []string{"example.com/tinytsdb"},
	})
	if err != nil {
		log.Fatal(err)
	}
	im := analysis.Impacts(rep)["storage__BenchmarkSearch"]
	fmt.Printf("attributed %.1f%%, flat %.1f%%, %d project functions:\n", 100*im.Attributed, 100*im.Flat, len(im.Functions))
	for _, f := range im.Functions {
		fmt.Println(" ", f)
	}
	// Output:
	// attributed 2.5%, flat 14.9%, 5 project functions:
	//   example.com/tinytsdb/storage.(*Table).AddRows
	//   example.com/tinytsdb/storage.(*Table).Search
	//   example.com/tinytsdb/storage.(*index).getOrCreate
	//   example.com/tinytsdb/storage.(*index).search
	//   example.com/tinytsdb/storage.intersect
}
