package shard_test

import (
	"fmt"
	"log"

	"github.com/mbopt/mbopt/relevance/shard"
)

// Three CI jobs split six benchmarks by the costs a previous collection
// recorded (seconds); the benchmark without a recorded cost counts as the
// mean of the others. Every job computes the same partition and keeps its
// own share.
func ExampleShare() {
	ids := []string{"p.BenchmarkA", "p.BenchmarkB", "p.BenchmarkC", "p.BenchmarkD", "p.BenchmarkE", "p.BenchmarkNew"}
	costs := map[string]float64{"p.BenchmarkA": 9, "p.BenchmarkB": 4, "p.BenchmarkC": 4, "p.BenchmarkD": 2, "p.BenchmarkE": 1}
	items, byCount := shard.Items(ids, costs)
	fmt.Println("by count:", byCount)
	for k := range 3 {
		spec, err := shard.Parse(fmt.Sprintf("%d/3", k))
		if err != nil {
			log.Fatal(err)
		}
		share, err := shard.Share(items, spec)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(spec, share)
	}
	a, _ := shard.Assign(items, 3)
	b := shard.Balance(items, a, 3)
	fmt.Printf("loads %v, ideal %.1f\n", b.Loads, b.Ideal)
	// Output:
	// by count: false
	// 0/3 [p.BenchmarkA]
	// 1/3 [p.BenchmarkB p.BenchmarkNew]
	// 2/3 [p.BenchmarkC p.BenchmarkD p.BenchmarkE]
	// loads [9 8 7], ideal 8.0
}

// A merge checks that the shards it was given are one partition, all of
// them, once each; here the second of three shards is missing.
func ExampleCheckPartition() {
	ids := []string{"p.BenchmarkA", "p.BenchmarkB", "p.BenchmarkC"}
	items, _ := shard.Items(ids, nil)
	var parts []shard.Part
	for _, k := range []int{0, 2} {
		spec := shard.Spec{Index: k, Count: 3}
		share, err := shard.Share(items, spec)
		if err != nil {
			log.Fatal(err)
		}
		parts = append(parts, shard.Part{Name: fmt.Sprintf("out-%d", k), Record: shard.NewRecord(spec, items), IDs: share})
	}
	fmt.Println(shard.CheckPartition(parts, true))
	// Output:
	// missing 1 shard of 3: shard 1/3 (given: out-0, out-2); merge every shard
}
