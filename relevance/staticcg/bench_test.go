package staticcg_test

import (
	"context"
	"testing"

	"github.com/mbopt/mbopt/relevance/staticcg"
)

// BenchmarkBuild measures the figures of "Algorithm" in the package
// documentation: the static graph of the example module with each
// algorithm.
func BenchmarkBuild(b *testing.B) {
	for _, alg := range []staticcg.Algorithm{staticcg.CHA, staticcg.VTA} {
		b.Run(alg.String(), func(b *testing.B) {
			for b.Loop() {
				g, err := staticcg.Build(context.Background(), staticcg.Options{Dir: "../../testdata/example", Algorithm: alg})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(g.Funcs)), "funcs")
			}
		})
	}
}

// BenchmarkApply measures restricting the example's static graph to its
// application graph.
func BenchmarkApply(b *testing.B) {
	sg, app := exampleGraphs(b)
	for b.Loop() {
		staticcg.Apply(app, sg, staticcg.Both)
	}
}
