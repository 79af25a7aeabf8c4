package optimize

import (
	"fmt"

	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/internal/enum"
)

// Nodes selects which application nodes a greedy step counts.
type Nodes int

const (
	// ProjectNodes counts the application's project nodes only.
	ProjectNodes Nodes = iota
	// AllNodes counts every application node.
	AllNodes
)

// String returns "project" or "all".
func (n Nodes) String() string {
	return enum.Name("Nodes", n, "project", "all")
}

// ParseNodes parses "project" or "all".
func ParseNodes(s string) (Nodes, error) {
	return enum.Parse("invalid node criterion", s, ProjectNodes, AllNodes)
}

// Options configures [Greedy]. The zero value counts project nodes and
// breaks ties by attributed impact.
type Options struct {
	// Nodes selects the nodes whose coverage the greedy maximises.
	Nodes Nodes
	// Impact selects the application time of the tie-break "larger added
	// impact" (see "Ties" in the package documentation): the attributed
	// impact (the zero value) or the paper's flat reference impact.
	// Another value panics (programmer misuse).
	Impact coverage.ImpactKind
	// Exclude lists benchmark ids that may not be picked, such as
	// benchmarks too unstable to detect changes with; ids that are not
	// among the coverage sets are ignored.
	Exclude []string
}

// Step is one pick of the greedy.
type Step struct {
	// ID is the picked benchmark's id.
	ID string
	// Index is its position in coverage.Result.Sets.
	Index int
	// Added is the number of counted nodes (see Options.Nodes) it newly
	// covers: the gain that made it the pick.
	Added int
	// AddedProject and AddedOverall count the project and all
	// application nodes it newly covers.
	AddedProject, AddedOverall int
	// AddedNodes lists the application node ids it newly covers (project
	// and external), in increasing order.
	AddedNodes []int
	// AddedImpactSeconds is the application flat time of AddedNodes (the
	// paper's reference impact of the nodes the pick adds).
	AddedImpactSeconds float64
	// ImpactSeconds and ImpactShare are the benchmark's own reference
	// impact (over its whole coverage set).
	ImpactSeconds, ImpactShare float64
	// AddedAttributedImpactSeconds is the attributed impact of AddedNodes
	// (see coverage.AttributedImpact).
	AddedAttributedImpactSeconds float64
	// AttributedImpactSeconds and AttributedImpactShare are the
	// benchmark's own attributed impact (over its whole coverage set).
	AttributedImpactSeconds, AttributedImpactShare float64
	// CumulativeProject and CumulativeOverall are the coverage of the
	// picks so far, this one included.
	CumulativeProject, CumulativeOverall coverage.Ratio
	// CumulativeImpactSeconds is the application flat time of all nodes
	// covered by the picks so far.
	CumulativeImpactSeconds float64
	// CumulativeAttributedImpactSeconds is the attributed impact of all
	// nodes covered by the picks so far.
	CumulativeAttributedImpactSeconds float64
	// Marginal reports that the pick's contribution is under
	// [MarginalShare] of the application's time (see "Marginal picks" in
	// the package documentation). It only marks the pick.
	Marginal bool
}

// MarginalShare is the share of the application's time (1%) under which a
// pick's contribution makes it marginal: the application time of the
// nodes it newly covers, by the impact the selection ranks with
// (Options.Impact, Plan.Impact).
const MarginalShare = 0.01

// Result is a minimal suite: the picks in order. Steps[:k] is the greedy's
// best suite of k benchmarks, so the cumulative figures trace the coverage
// curve (the dissertation's Figure 6.6).
type Result struct {
	// Nodes is the counted nodes the suite keeps covered (Options.Nodes).
	Nodes Nodes
	// Steps are the picks in order.
	Steps []Step
	// Covered holds the application nodes covered by all picks.
	Covered bitset.Set
}

// IDs returns the picked benchmark ids in pick order.
func (r *Result) IDs() []string {
	ids := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		ids[i] = s.ID
	}
	return ids
}

// Greedy runs Algorithm 2 on cov and returns the picks in order; see the
// package documentation for the tie-break rule and the cost. It is
// [Select] with a Plan that sets only Nodes and Impact, which cannot fail.
func Greedy(cov *coverage.Result, opts Options) *Result {
	return newEngine(cov, Plan{Nodes: opts.Nodes, Impact: opts.Impact, Exclude: opts.Exclude}, nil).run().Result()
}

// Trace returns the benchmarks ids, taken in that order, as [Greedy]
// records its picks over cov with opts (what each adds, the cumulative
// coverage and impact, the marginal mark): the coverage of a suite another
// relation chose, such as the [Caught] objective's. An id that is not
// among cov's sets, or repeated, is an error naming it.
func Trace(cov *coverage.Result, ids []string, opts Options) (*Result, error) {
	e := newEngine(cov, Plan{Nodes: opts.Nodes, Impact: opts.Impact}, nil)
	sel := &Selection{Nodes: opts.Nodes, Covered: bitset.New(cov.App.Len())}
	seen := map[string]bool{}
	for _, id := range ids {
		i, ok := cov.Index(id)
		switch {
		case !ok:
			return nil, fmt.Errorf("optimize.Trace: benchmark %q is not among the coverage sets", id)
		case seen[id]:
			return nil, fmt.Errorf("optimize.Trace: benchmark %q is repeated", id)
		}
		seen[id] = true
		e.take(sel, i, 0)
	}
	return sel.Result(), nil
}
