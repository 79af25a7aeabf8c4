package callgraph_test

import (
	"fmt"
	"log"

	"github.com/mbopt/mbopt/callgraph"
)

// Load reads the example application's CPU profile (a small time-series
// database, module example.com/tinytsdb, serving writes and queries) into a
// call graph whose project nodes are the module's functions.
func ExampleLoad() {
	g, err := callgraph.Load([]string{"../testdata/profiles/example/app.pprof"},
		callgraph.Options{Modules: []string{"example.com/tinytsdb"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d functions, %d in the project, %.2f %s of CPU in %d samples\n",
		g.Len(), g.ProjectLen(), g.Total, g.Unit, g.Samples)

	id, ok := g.Lookup("example.com/tinytsdb/httpapi.(*Server).handleQuery")
	if !ok {
		log.Fatal("handleQuery not in the profile")
	}
	n := g.Nodes[id]
	fmt.Printf("%s: package %s, project %v, flat %.2fs, cum %.2fs, %d callers, %d callees\n",
		n.Name, n.Package, n.Project, n.Flat, n.Cum, len(g.In[id]), len(g.Out[id]))
	// Output:
	// 605 functions, 51 in the project, 11.66 seconds of CPU in 747 samples
	// example.com/tinytsdb/httpapi.(*Server).handleQuery: package example.com/tinytsdb/httpapi, project true, flat 0.00s, cum 7.49s, 1 callers, 4 callees
}

// NormalizeName gives every instantiation of a generic function one name,
// so that graphs from different binaries compare equal.
func ExampleNormalizeName() {
	for _, name := range []string{
		"example.com/m/pkg.Map[go.shape.int,go.shape.string]",
		"example.com/m/pkg.Map[int,string]",
		"example.com/m/pkg.(*Tree[go.shape.int]).Insert.func1",
		"example.com/m/pkg.Plain",
	} {
		fmt.Println(callgraph.NormalizeName(name))
	}
	// Output:
	// example.com/m/pkg.Map[...]
	// example.com/m/pkg.Map[...]
	// example.com/m/pkg.(*Tree[...]).Insert.func1
	// example.com/m/pkg.Plain
}

// IsBelow decides which packages are project code: a module prefix covers
// the packages at and below it, on path boundaries.
func ExampleIsBelow() {
	for _, pkg := range []string{"github.com/x/y", "github.com/x/y/storage", "github.com/x/y-client"} {
		fmt.Println(pkg, callgraph.IsBelow(pkg, "github.com/x/y"))
	}
	// Output:
	// github.com/x/y true
	// github.com/x/y/storage true
	// github.com/x/y-client false
}

// Table.Load reads a benchmark's profile straight into its footprint: the
// functions its graph would have, numbered by a table of the application
// graph's nodes, without building the graph.
func ExampleTable_Load() {
	app, err := callgraph.Load([]string{"../testdata/profiles/example/app.pprof"},
		callgraph.Options{Modules: []string{"example.com/tinytsdb"}})
	if err != nil {
		log.Fatal(err)
	}
	tab := callgraph.NewTable(app)
	fp, err := tab.Load("../testdata/profiles/example/micro/storage__BenchmarkSearch.pprof", callgraph.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d functions: %d of the application's %d, %d others; %d samples taken\n",
		fp.Len(), fp.Nodes.Len(), app.Len(), len(fp.Others), fp.SamplesTaken)
	for _, name := range []string{"example.com/tinytsdb/storage.(*Table).Search", "example.com/tinytsdb/storage.BenchmarkSearch"} {
		id, _ := tab.Lookup(name)
		fmt.Printf("%s: in the footprint %v, an application node %v\n", name, fp.Has(id), id < app.Len())
	}
	// Output:
	// 131 functions: 76 of the application's 605, 55 others; 269 samples taken
	// example.com/tinytsdb/storage.(*Table).Search: in the footprint true, an application node true
	// example.com/tinytsdb/storage.BenchmarkSearch: in the footprint true, an application node false
}

// FlatShares gives each function's share of the application's CPU time,
// what an estimate of a change's application impact weighs by.
func ExampleGraph_FlatShares() {
	g, err := callgraph.Load([]string{"../testdata/profiles/example/app.pprof"},
		callgraph.Options{Modules: []string{"example.com/tinytsdb"}})
	if err != nil {
		log.Fatal(err)
	}
	shares := g.FlatShares()
	sum := 0.0
	for _, s := range shares {
		sum += s
	}
	fmt.Printf("%d functions with flat time, summing to %.3f\n", len(shares), sum)
	fmt.Printf("readBits %.3f, handleQuery %.3f (its time is in its callees)\n",
		shares["example.com/tinytsdb/encoding.(*bitReader).readBits"], shares["example.com/tinytsdb/httpapi.(*Server).handleQuery"])
	fmt.Printf("a graph without time: %v\n", (&callgraph.Graph{}).FlatShares() == nil)
	// Output:
	// 219 functions with flat time, summing to 1.000
	// readBits 0.225, handleQuery 0.000 (its time is in its callees)
	// a graph without time: true
}
