package optimize_test

import (
	"fmt"
	"log"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/recommend"
)

// cpuProfile builds a CPU profile whose samples are the given stacks, each
// listed root first and taking 10ms. Real code reads profiles with
// callgraph.ReadProfile or callgraph.Load instead.
func cpuProfile(stacks ...[]string) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Period:     10_000_000,
	}
	locs := map[string]*profile.Location{}
	for _, stack := range stacks {
		s := &profile.Sample{Value: []int64{1, 10_000_000}}
		for i := len(stack) - 1; i >= 0; i-- {
			l, ok := locs[stack[i]]
			if !ok {
				f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: stack[i]}
				l = &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: f}}}
				p.Function = append(p.Function, f)
				p.Location = append(p.Location, l)
				locs[stack[i]] = l
			}
			s.Location = append(s.Location, l)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

// benchmarkOf returns a function making the benchmark id whose profile's
// samples are stacks, its graph built with opts.
func benchmarkOf(opts callgraph.Options) func(id string, stacks ...[]string) coverage.Benchmark {
	return func(id string, stacks ...[]string) coverage.Benchmark {
		g, err := callgraph.New(cpuProfile(stacks...), opts)
		if err != nil {
			log.Fatalf("benchmark %s: %v", id, err)
		}
		return coverage.Benchmark{ID: id, Graph: g}
	}
}

// The whole pipeline: profiles → call graphs → coverage → minimal suite →
// recommendations.
func Example() {
	opts := callgraph.Options{Modules: []string{"example.com/db"}}

	// The application: an HTTP handler writing and querying a store.
	app, err := callgraph.New(cpuProfile(
		[]string{"net/http.(*conn).serve", "example.com/db/api.Write", "example.com/db/store.Append", "example.com/db/codec.Encode"},
		[]string{"net/http.(*conn).serve", "example.com/db/api.Write", "example.com/db/store.Append", "runtime.mallocgc"},
		[]string{"net/http.(*conn).serve", "example.com/db/api.Query", "example.com/db/store.Scan", "example.com/db/codec.Decode"},
	), opts)
	if err != nil {
		log.Fatal(err)
	}

	// Three microbenchmarks; BenchmarkEncode is redundant with BenchmarkAppend.
	bench := benchmarkOf(opts)
	cov := coverage.Compute(app, []coverage.Benchmark{
		bench("BenchmarkAppend", []string{"testing.(*B).runN", "example.com/db/store.BenchmarkAppend", "example.com/db/store.Append", "example.com/db/codec.Encode"}),
		bench("BenchmarkEncode", []string{"testing.(*B).runN", "example.com/db/codec.BenchmarkEncode", "example.com/db/codec.Encode"}),
		bench("BenchmarkDecode", []string{"testing.(*B).runN", "example.com/db/codec.BenchmarkDecode", "example.com/db/codec.Decode"}),
	})
	fmt.Printf("project-only coverage %d/%d, overall %d/%d\n",
		cov.Project.Covered, cov.Project.Total, cov.Overall.Covered, cov.Overall.Total)
	for _, s := range cov.Sets {
		fmt.Printf("%s covers %d nodes, reference impact %.2fs\n", s.ID, s.OverallNodes, s.ImpactSeconds)
	}

	suite := optimize.Greedy(cov, optimize.Options{})
	for _, s := range suite.Steps {
		fmt.Printf("pick %s: +%d project nodes, project coverage now %.0f%%\n", s.ID, s.Added, 100*s.CumulativeProject.Ratio)
	}

	recs := recommend.Additional(cov, cov.Covered, recommend.Options{N: 2})
	for _, r := range recs.Recommendations {
		fmt.Printf("benchmark %s next: +%d project, +%d external nodes\n", r.Function, r.AddedProject, r.AddedExternal)
	}
	// Output:
	// project-only coverage 3/6, overall 3/8
	// BenchmarkAppend covers 2 nodes, reference impact 0.01s
	// BenchmarkDecode covers 1 nodes, reference impact 0.01s
	// BenchmarkEncode covers 1 nodes, reference impact 0.01s
	// pick BenchmarkAppend: +2 project nodes, project coverage now 33%
	// pick BenchmarkDecode: +1 project nodes, project coverage now 50%
	// benchmark example.com/db/api.Query next: +2 project, +0 external nodes
	// benchmark example.com/db/api.Write next: +1 project, +1 external nodes
}

// The cheapest suite with Algorithm 2's coverage: a slow end-to-end
// benchmark covers everything, two fast unit benchmarks cover the same.
func ExampleSelect_cost() {
	opts := callgraph.Options{Modules: []string{"example.com/db"}}
	app, err := callgraph.New(cpuProfile(
		[]string{"example.com/db/api.Write", "example.com/db/store.Append"},
		[]string{"example.com/db/api.Query", "example.com/db/store.Scan"},
	), opts)
	if err != nil {
		log.Fatal(err)
	}
	bench := benchmarkOf(opts)
	cov := coverage.Compute(app, []coverage.Benchmark{
		bench("BenchmarkEndToEnd",
			[]string{"example.com/db/api.Write", "example.com/db/store.Append"},
			[]string{"example.com/db/api.Query", "example.com/db/store.Scan"}),
		bench("BenchmarkWrite", []string{"example.com/db/api.Write", "example.com/db/store.Append"}),
		bench("BenchmarkQuery", []string{"example.com/db/api.Query", "example.com/db/store.Scan"}),
	})
	costs := map[string]float64{"BenchmarkEndToEnd": 40, "BenchmarkWrite": 1.5, "BenchmarkQuery": 2}

	alg2, err := optimize.Select(cov, optimize.Plan{Costs: costs})
	if err != nil {
		log.Fatal(err)
	}
	cheap, err := optimize.Select(cov, optimize.Plan{Objective: optimize.Cost, Costs: costs})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Algorithm 2: %v, %g s, %d project nodes\n", alg2.IDs(), alg2.TotalCost, alg2.Covered.IntersectionLen(cov.ProjectMask))
	fmt.Printf("cost:        %v, %g s, %d project nodes\n", cheap.IDs(), cheap.TotalCost, cheap.Covered.IntersectionLen(cov.ProjectMask))
	// Output:
	// Algorithm 2: [BenchmarkEndToEnd], 40 s, 4 project nodes
	// cost:        [BenchmarkWrite BenchmarkQuery], 3.5 s, 4 project nodes
}
