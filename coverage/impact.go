package coverage

import (
	"fmt"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/enum"
)

// ImpactKind selects how much application time a covered node is worth in
// an impact figure; see "Reference impact and attributed impact" in the
// package documentation. The zero value is [AttributedImpact].
type ImpactKind int

const (
	// AttributedImpact weighs a covered project node by its
	// [callgraph.Node.Attributed] time (the samples whose innermost
	// project frame it is) and an external node by nothing. Every sample
	// is charged to at most one node, so the attributed impacts of
	// benchmarks covering disjoint project nodes add up to at most the
	// application's total time.
	AttributedImpact ImpactKind = iota
	// FlatImpact weighs every covered node, project or external, by its
	// [callgraph.Node.Flat] time: the reference impact of the TCC paper.
	FlatImpact
)

// String returns "attributed" or "flat".
func (k ImpactKind) String() string {
	return enum.Name("ImpactKind", k, "attributed", "flat")
}

// ParseImpactKind parses "attributed" or "flat".
func ParseImpactKind(s string) (ImpactKind, error) {
	return enum.Parse("invalid impact", s, AttributedImpact, FlatImpact)
}

// NodeSeconds returns what covering n is worth under k: n.Attributed for
// a project node and 0 for an external one under [AttributedImpact],
// n.Flat under [FlatImpact]. It is the one rule behind every impact figure
// of mbopt (coverage sets, picks, recommendations and the impact
// objective of package optimize). It panics on an unknown kind.
func (k ImpactKind) NodeSeconds(n *callgraph.Node) float64 {
	switch k {
	case AttributedImpact:
		if n.Project {
			return n.Attributed
		}
		return 0
	case FlatImpact:
		return n.Flat
	}
	panic(fmt.Sprintf("coverage: unknown %v", k))
}
