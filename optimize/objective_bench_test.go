package optimize_test

import (
	"fmt"
	"testing"

	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/testkit/synth"
)

// BenchmarkObjectives times optimize.Select's variants against the plain
// optimize.Greedy (Algorithm 2) on the 50,000-node synthetic instance with
// 5,000 benchmarks; coverage is computed outside the timer. scripts/bench.sh
// (or a reader) compares each variant's ns/op with greedy's from the same run: no
// variant may take more than twice as long, except cost, which runs three
// greedy passes (the cost-weighted one, Algorithm 2's for the safeguard and
// the ordering of the kept picks) plus two reverse-delete passes: at most
// three and a half times.
func BenchmarkObjectives(b *testing.B) {
	const apps, nb = 50000, 5000
	s := synth.New(synth.Config{Seed: 1, AppNodes: apps, Benchmarks: nb})
	app, benches := s.Graphs()
	cov := coverage.Compute(app, benches)
	// Costs: 50 ms plus 1 ms per graph node, a stand-in for measured
	// running times that differ by two orders of magnitude.
	costs := map[string]float64{}
	total := 0.0
	for _, set := range cov.Sets {
		costs[set.ID] = 0.05 + 0.001*float64(set.GraphNodes)
		total += costs[set.ID]
	}
	weights := make([]float64, app.Len())
	for i := range weights {
		weights[i] = float64(1 + i%3)
	}
	variants := []struct {
		name string
		plan optimize.Plan
	}{
		{"nodes", optimize.Plan{}},
		{"impact", optimize.Plan{Objective: optimize.Impact}},
		{"weighted", optimize.Plan{Weights: weights}},
		{"budget=10%", optimize.Plan{Budget: total / 10, Costs: costs}},
		{"impact,budget=10%", optimize.Plan{Objective: optimize.Impact, Budget: total / 10, Costs: costs}},
		{"top=10", optimize.Plan{Top: 10}},
		{"min-gain=4", optimize.Plan{MinGain: 4}},
		{"cost", optimize.Plan{Objective: optimize.Cost, Costs: costs}},
	}
	b.Run("greedy", func(b *testing.B) {
		var picks int
		for b.Loop() {
			picks = len(optimize.Greedy(cov, optimize.Options{}).Steps)
		}
		b.ReportMetric(float64(picks), "picks")
	})
	for _, v := range variants {
		b.Run(fmt.Sprintf("select/%s", v.name), func(b *testing.B) {
			var picks int
			for b.Loop() {
				sel, err := optimize.Select(cov, v.plan)
				if err != nil {
					b.Fatal(err)
				}
				picks = len(sel.Steps)
			}
			b.ReportMetric(float64(picks), "picks")
		})
	}
	b.Run("certify", func(b *testing.B) {
		var c *optimize.Certificate
		for b.Loop() {
			var err error
			if c, err = optimize.Certify(cov, optimize.CertifyOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(c.Rows), "lp-rows")
		b.ReportMetric(float64(c.LowerBound), "bound")
		b.ReportMetric(float64(c.Greedy), "picks")
	})
}
