package callgraph_test

import (
	"path/filepath"
	"testing"

	"github.com/mbopt/mbopt/callgraph"
)

// BenchmarkFootprints reads the example's 19 benchmark profiles into
// footprints (Table.Load, the lean decoder) and into graphs without edges
// (Load, profile.Parse and the graph builder), as package analysis did
// before footprints; both per pass over the 19 files.
func BenchmarkFootprints(b *testing.B) {
	app, err := callgraph.Load([]string{exampleApp}, callgraph.Options{})
	if err != nil {
		b.Fatal(err)
	}
	files, err := filepath.Glob("../testdata/profiles/example/micro/*.pprof")
	if err != nil || len(files) == 0 {
		b.Fatalf("no benchmark profiles: %v", err)
	}
	b.Run("Table.Load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tab := callgraph.NewTable(app)
			for _, f := range files {
				if _, err := tab.Load(f, callgraph.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("Load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				if _, err := callgraph.Load([]string{f}, callgraph.Options{NoEdges: true}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
