package analysis

import (
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/covdata"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/manifest"
)

// functionSetGraph reads the function set at path (collected with
// collect.Config.Source cover) and returns it as a benchmark graph: its
// functions, plus every application function the set contains by
// covdata's rules (a closure that inlining copied into another function, a
// compiler wrapper), under the application's name for it, so that coverage
// compares it with the application like a profile. The graph has no edges
// and no time (callgraph.FromFunctions). It also reports whether the set
// is of a timed loop (covdata.Set.Timed).
func functionSetGraph(path string, app *callgraph.Graph, opts callgraph.Options) (*callgraph.Graph, bool, error) {
	set, err := covdata.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	fns := make([]callgraph.Function, 0, len(set.Funcs))
	for _, f := range set.Funcs {
		fns = append(fns, callgraph.Function{Name: f.Name, File: f.File, Line: f.Line})
	}
	for _, n := range app.Nodes {
		if set.Instrumented(n.Package) && set.Contains(n.Name) {
			fns = append(fns, callgraph.Function{Name: n.Name, File: n.File, Line: n.Line})
		}
	}
	g, err := callgraph.FromFunctions(fns, opts)
	return g, set.Timed, err
}

// benchmarkScope returns manifest.ScopeTimed when the benchmarks are
// function sets of their timed loops, and "" when they are profiles or
// sets of whole runs. It fails when sets of the two scopes are mixed: a
// suite chosen from a mix would compare the setup of some benchmarks with
// the loops of others.
func benchmarkScope(benches []loaded) (manifest.Scope, error) {
	var timed, whole *loaded
	for i := range benches {
		switch {
		case !benches[i].set:
		case benches[i].timed:
			timed = &benches[i]
		default:
			whole = &benches[i]
		}
	}
	if timed != nil && whole != nil {
		return "", input.Errorf("%s is a function set of a timed loop (collected with scope timed) and %s one of a whole run (scope all): give %s the benchmarks of one scope, not both", timed.file, whole.file, input.Field("Micro"))
	}
	if timed != nil {
		return manifest.ScopeTimed, nil
	}
	return "", nil
}

// checkOneSource fails when files mix CPU profiles and function sets: the
// two measure different things (function sets know only the instrumented
// module's functions and no time), so a suite chosen from a mix would
// compare benchmarks unfairly.
func checkOneSource(files []benchFile) error {
	var set, prof *benchFile
	for i := range files {
		if files[i].set {
			set = &files[i]
		} else {
			prof = &files[i]
		}
	}
	if set != nil && prof != nil {
		return input.Errorf("%s is a function set (collected with source cover) and %s a CPU profile: give %s the benchmarks of one collection source, not both", set.path, prof.path, input.Field("Micro"))
	}
	return nil
}
