// Package staticcg adds static call edges to an application's call graph,
// so that the recommendation (package recommend, Algorithm 3) is not
// limited to the calls that happened to be sampled.
//
// A CPU profile samples stacks 100 times a second: a call that ran but was
// never on a sampled stack gives no edge, and Algorithm 3 then misses what
// a benchmark of the caller would reach. [Build] computes the static call
// graph of the application's source instead (golang.org/x/tools:
// go/packages loads and type-checks it, go/ssa builds it with generic
// functions instantiated, go/callgraph/vta resolves its dynamic calls) and
// names its functions as profiles do ([Name]); [Apply] restricts it to the
// functions the application actually ran, the nodes of its graph, and
// returns the graph with static edges instead of or beside the sampled ones
// ([Edges]).
//
// # Edges
//
// [Sampled] keeps the profile's edges (the paper's graph). [Static] uses
// the static edges between the application's functions only: every call
// the code can make between two functions that ran, but none that the
// static analysis cannot see (calls from assembly, from the runtime into
// a goroutine's function, through reflect or cgo). [Both], the union, is
// what a recommendation normally wants: nothing sampled is lost, and calls
// that ran unsampled, or in other runs, are added.
//
// A static edge u→v joins two functions of the application graph that the
// static graph connects directly, or through functions the application
// graph does not have and that do no work of their own (method wrappers,
// bound method values and method-expression thunks, which the compiler
// inlines or never emits; see [Func.Transparent]). A path through any
// other function the application did not run is no edge: that call did not
// happen. Restricting the static graph to the nodes of the application
// graph keeps the recommendation about the workload: a static edge never
// adds a node, only paths between functions that ran.
//
// # Names
//
// A static function is a node of the application graph when [Name] gives
// the profile's name for it: package path (main for package main, the last
// element's dots escaped as the linker does), receiver and name, type
// argument lists as "[...]" (as callgraph.NormalizeName writes them, so all
// instantiations of a generic function are one function), closures
// numbered as the compiler numbers them (F.func1, F.func1.1 nested,
// F-range1 for a range-over-func loop body, T.M-fm for a method value).
// On the example module every project function of the application profile
// has its static function ([Stats.Unmatched] is empty); TestNames checks
// every name of a fixture against the symbols of its compiled binary.
//
// # Algorithm
//
// [VTA] is the default. Measured on a 2-core machine (BenchmarkBuild has
// the example's figures; they vary by a third with the machine's load), loading and
// type-checking from source and building SSA dominate: the example module
// (17,461 SSA functions with the standard library) takes 4.7 s to load and
// build, CHA 0.4 s more and VTA 1.3 s more; mbopt's own module (32,951
// functions) 9.2 s, CHA 0.8 s, VTA 4.1 s. VTA is therefore never too slow
// to be worth it, and it is far more precise: CHA sends every interface
// call to every method of its name (235,429 edges on the example, 494,160
// on mbopt) where VTA keeps those whose receiver can flow there (66,783 and
// 140,855). Imprecise edges matter here, because Algorithm 3 counts what a
// function reaches: with CHA an io.Writer call reaches every Write method
// the application ran. [CHA] stays available for programs where VTA's
// memory (1.8 GB on mbopt) is too much.
//
// # Cost
//
// [Build] is seconds and hundreds of megabytes (above); [Apply] is
// under a millisecond on the example (BenchmarkApply). The graph depends only on the source, so one [Graph] serves
// any number of profiles of the same build.
package staticcg
