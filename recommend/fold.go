package recommend

import (
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
)

// A Target is a function [Additional] could recommend and the application
// nodes that count for it, for rankings other than Algorithm 3's (package
// analysis ranks the functions whose slowdown the suite would miss with
// them).
type Target struct {
	// Function is the target's name: with [Callable] the named function
	// its closures fold into.
	Function string
	// Node is the function's id in the application graph, -1 when only
	// its closures were sampled.
	Node int
	// Members are the ids of the nodes that count for it, increasing: its
	// node and, with [Callable], its closures'.
	Members []int
	// Negligible says why it is negligible, nil when it is not (see
	// "Negligible candidates" in the package documentation).
	Negligible *Negligible
}

// Candidates returns the candidates [Additional] would weigh on cov's
// application graph if no node were covered, by the same rules: with
// opts.Targets [Callable] the functions a benchmark can call, closures
// folded in, in name order (leaving out opts.NotTarget's packages); with
// [AnyFunction] every project node alone, in id order. Each is marked
// negligible as Additional marks it, its callers counting as covered when
// in covered (opts.Lines as there). opts.N, Details, Thin and
// KeepNegligible are not read.
func Candidates(cov *coverage.Result, covered bitset.Set, opts Options) []Target {
	g := cov.App
	gs := groups(g, nil, bitset.New(g.Len()), opts.Targets, opts.NotTarget)
	lines, from := declLines(g, opts.Lines)
	out := make([]Target, len(gs))
	for i := range gs {
		gr := &gs[i]
		out[i] = Target{Function: gr.name, Node: gr.node, Members: gr.members, Negligible: negligible(cov, covered, gr, lines, from)}
	}
	return out
}
