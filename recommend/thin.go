package recommend

import (
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/bitset"
)

// Thin is a benchmark whose sampled profile took too few samples to trust
// (package analysis decides which: fewer than its MinBenchmarkSamples).
// Functions it ran briefly may be missing from its coverage set, so what it
// covers is a lower bound, and [Unseen] says what it may have run unseen.
type Thin struct {
	// ID is the benchmark's id.
	ID string
	// Covered is its coverage set: the application nodes its profile has.
	Covered bitset.Set
}

// Unseen returns the nodes a thin benchmark may have run without a sample:
// the application nodes not in covered that g has a path to from a project
// node in thin (the thin benchmark's coverage set), in increasing order.
//
// The rule is Algorithm 3's own assumption turned around. Algorithm 3
// credits a benchmark of F with every node F reaches in the application
// graph, assuming the benchmark calls what the application calls; by the
// same assumption, a benchmark seen running F may have run anything F
// reaches, and a profile of too few samples cannot tell which of those it
// did not run. A function that only a thin profile could have run unseen is
// therefore not known to be uncovered. Paths may pass through covered and
// external nodes (a project function called back by the standard library
// counts); they start at project nodes only, since the runtime and the
// standard library reach the whole application (every goroutine starts in
// the runtime). covered is usually the whole suite's coverage, which holds
// thin's project nodes.
func Unseen(g *callgraph.Graph, covered, thin bitset.Set) []int {
	seen := make([]bool, g.Len())
	var stack []int
	for v, n := range g.Nodes {
		if n.Project && thin.Has(v) {
			seen[v] = true
			stack = append(stack, v)
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v >= len(g.Out) {
			continue // a hand-built graph without Out lists
		}
		for _, w := range g.Out[v] {
			if !seen[w] {
				seen[w] = true
				stack = append(stack, int(w))
			}
		}
	}
	var out []int
	for v, s := range seen {
		if s && !covered.Has(v) {
			out = append(out, v)
		}
	}
	return out
}
