package analysis

import (
	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/relevance/manifest"
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
// function sets or instruction profiles of their timed loops, and "" when
// they are CPU profiles or sets or instruction profiles of whole runs. It
// fails when the two scopes are mixed: a suite chosen from a mix would
// compare the setup of some benchmarks with the loops of others.
func benchmarkScope(benches []loaded) (manifest.Scope, error) {
	var timed, whole *loaded
	for i := range benches {
		switch {
		case !benches[i].set && !benches[i].instr:
		case benches[i].timed:
			timed = &benches[i]
		default:
			whole = &benches[i]
		}
	}
	if timed != nil && whole != nil {
		what := "a function set"
		if timed.instr {
			what = "an instruction profile"
		}
		return "", mbopt.Errorf("%s is %s of a timed loop (collected with scope timed) and %s one of a whole run (scope all): give %s the benchmarks of one scope, not both", timed.file, what, whole.file, FieldMicro)
	}
	if timed != nil {
		return manifest.ScopeTimed, nil
	}
	return "", nil
}

// benchmarkSource returns the source of the benchmarks, which
// checkOneSource made one: manifest.SourceCover for function sets,
// manifest.SourceInstructions for instruction profiles, "" for CPU
// profiles.
func benchmarkSource(benches []loaded) manifest.Source {
	for _, b := range benches {
		switch {
		case b.set:
			return manifest.SourceCover
		case b.instr:
			return manifest.SourceInstructions
		}
	}
	return ""
}

// checkOneSource fails when files mix CPU profiles, function sets and
// instruction profiles: they measure different things (function sets know
// only the instrumented module's functions and no time, instruction
// profiles weigh in instructions, not seconds), so a suite chosen from a
// mix would compare benchmarks unfairly. The error names the first file of
// each of two kinds, in the order of files.
func checkOneSource(files []benchFile) error {
	first := map[string]*benchFile{}
	var kinds []string
	for i := range files {
		k := "a CPU profile"
		switch {
		case files[i].set:
			k = "a function set (collected with source cover)"
		case files[i].instr:
			k = "an instruction profile (collected with source instructions)"
		}
		if first[k] == nil {
			first[k] = &files[i]
			kinds = append(kinds, k)
		}
	}
	if len(kinds) > 1 {
		return mbopt.Errorf("%s is %s and %s %s: give %s the benchmarks of one collection source, not both", first[kinds[0]].path, kinds[0], first[kinds[1]].path, kinds[1], FieldMicro)
	}
	return nil
}
