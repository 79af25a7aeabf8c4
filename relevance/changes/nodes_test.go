package changes_test

import (
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/relevance/changes"
)

func changed(names ...string) *changes.Result {
	r := &changes.Result{}
	for _, n := range names {
		r.Functions = append(r.Functions, changes.Function{Name: n, Change: changes.FuncModified})
	}
	return r
}

func TestMatches(t *testing.T) {
	r := changed("example.com/m/a.Upper", "example.com/m/a.Sum.func1", "example.com/m/a.(*T).Each.func2", "example.com/m/a.Walk")
	tests := []struct {
		node string
		want bool
	}{
		{"example.com/m/a.Upper", true},
		{"example.com/m/a.Upper.func1", false},    // a closure of a changed function is code of its own
		{"example.com/m/a.Sum", false},            // the function around a changed closure
		{"example.com/m/a.Sum.func1", true},       // the closure
		{"example.com/m/a.Total.Sum.func1", true}, // its copy inlined into Total
		{"example.com/m/b.Total.Sum.func1", false},
		{"example.com/m/a.Sum.func12", false},
		{"example.com/m/a.Run.(*T).Each.func2", true}, // a method's closure inlined into Run
		{"example.com/m/a.Walk-range1", true},         // the body of a range-over-func loop in Walk
		{"example.com/m/a.Walk-range1-range2", true},
		{"example.com/m/a.Walker", false},
		{"example.com/m/ab.Upper", false},
		{"runtime.mallocgc", false},
	}
	for _, tt := range tests {
		if got := r.Matches(tt.node); got != tt.want {
			t.Errorf("Matches(%q) = %v, want %v", tt.node, got, tt.want)
		}
	}
}

// TestAffected builds an application of four project functions and three
// benchmarks: A covers Parse and Eval, B covers Eval, C covers Format. A
// change to Parse affects A only; a change to C's own benchmark function
// (in the external test package) affects C.
func TestAffected(t *testing.T) {
	node := func(name string) callgraph.Node {
		return callgraph.Node{Name: name, Package: callgraph.PackageOf(name), Project: true, Flat: 1, Cum: 1}
	}
	graph := func(names ...string) *callgraph.Graph {
		g := &callgraph.Graph{Unit: "seconds"}
		for _, n := range names {
			g.Nodes = append(g.Nodes, node(n))
			g.Total++
		}
		return g
	}
	app := graph("example.com/m/q.Eval", "example.com/m/q.Format", "example.com/m/q.Parse", "example.com/m/q.Parse.func1")
	cov := coverage.Compute(app, []coverage.Benchmark{
		{ID: "example.com/m/q.BenchmarkA", Graph: graph("example.com/m/q.Parse", "example.com/m/q.Eval", "example.com/m/q.BenchmarkA")},
		{ID: "example.com/m/q.BenchmarkB", Graph: graph("example.com/m/q.Eval")},
		{ID: "example.com/m/q.BenchmarkC/n=1", Graph: graph("example.com/m/q.Format")},
	})
	benches := []changes.Benchmark{
		{ID: "example.com/m/q.BenchmarkC/n=1", Package: "example.com/m/q", Name: "BenchmarkC/n=1"},
		{ID: "example.com/m/q.BenchmarkA", Package: "example.com/m/q", Name: "BenchmarkA"},
		{ID: "example.com/m/q.BenchmarkB", Package: "example.com/m/q", Name: "BenchmarkB"},
	}
	tests := []struct {
		name    string
		changed []string
		want    []changes.Hit
	}{
		{"one covered function", []string{"example.com/m/q.Parse"}, []changes.Hit{
			{ID: "example.com/m/q.BenchmarkA", Functions: []string{"example.com/m/q.Parse"}}}},
		{"shared function, in the order given", []string{"example.com/m/q.Eval"}, []changes.Hit{
			{ID: "example.com/m/q.BenchmarkA", Functions: []string{"example.com/m/q.Eval"}},
			{ID: "example.com/m/q.BenchmarkB", Functions: []string{"example.com/m/q.Eval"}}}},
		{"own benchmark function", []string{"example.com/m/q_test.BenchmarkC.func1"}, []changes.Hit{
			{ID: "example.com/m/q.BenchmarkC/n=1", Functions: []string{"example.com/m/q_test.BenchmarkC.func1"}}}},
		{"a function no benchmark covers", []string{"example.com/m/q.Parse.func1"}, nil},
		{"nothing changed", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := changes.Affected(cov, benches, changed(tt.changed...))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Affected = %+v, want %+v", got, tt.want)
			}
		})
	}
}
