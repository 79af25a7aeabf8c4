package optimize

import (
	"fmt"
	"math/bits"

	"github.com/mbopt/mbopt/bitset"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/lazy"
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
	switch n {
	case ProjectNodes:
		return "project"
	case AllNodes:
		return "all"
	}
	return fmt.Sprintf("Nodes(%d)", int(n))
}

// ParseNodes parses "project" or "all".
func ParseNodes(s string) (Nodes, error) {
	switch s {
	case "project":
		return ProjectNodes, nil
	case "all":
		return AllNodes, nil
	}
	return 0, fmt.Errorf("invalid node criterion %q: valid values are {project|all}", s)
}

// Options configures [Greedy]. The zero value counts project nodes.
type Options struct {
	// Nodes selects the nodes whose coverage the greedy maximises.
	Nodes Nodes
}

// Step is one pick of the greedy.
type Step struct {
	// ID is the picked benchmark; Index its position in coverage.Result.Sets.
	ID    string
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
	// AddedImpactSeconds is the application flat time of AddedNodes.
	AddedImpactSeconds float64
	// ImpactSeconds and ImpactShare are the benchmark's own reference
	// impact (over its whole coverage set).
	ImpactSeconds, ImpactShare float64
	// CumulativeProject and CumulativeOverall are the coverage of the
	// picks so far, this one included.
	CumulativeProject, CumulativeOverall coverage.Ratio
	// CumulativeImpactSeconds is the application flat time of all nodes
	// covered by the picks so far.
	CumulativeImpactSeconds float64
}

// Result is a minimal suite: the picks in order. Steps[:k] is the greedy's
// best suite of k benchmarks, so the cumulative figures trace the coverage
// curve (the dissertation's Figure 6.6).
type Result struct {
	Nodes Nodes
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
// package documentation for the tie-break rule and the cost.
func Greedy(cov *coverage.Result, opts Options) *Result {
	mask := cov.ProjectMask
	if opts.Nodes == AllNodes {
		mask = cov.AllMask
	}
	covered := bitset.New(cov.App.Len())
	res := &Result{Nodes: opts.Nodes, Covered: covered}

	// The key of a candidate: gain, then added impact (both only shrink
	// as covered grows), then graph size and id (constant).
	eval := func(c *candidate) {
		s := &cov.Sets[c.index]
		c.gain = s.Nodes.AndNotLen(mask, covered)
		c.impact = 0
		if c.gain > 0 {
			c.impact = addedImpact(cov, s.Nodes, covered)
		}
	}
	var keys []candidate
	for i := range cov.Sets {
		c := candidate{index: i}
		eval(&c)
		if c.gain > 0 {
			keys = append(keys, c)
		}
	}
	q := lazy.New(keys, func(a, b *candidate) bool { return better(cov.Sets, a, b) })
	for {
		_, ok := q.Top(func(c *candidate) bool { eval(c); return c.gain > 0 })
		if !ok {
			break
		}
		c := q.Take()
		s := &cov.Sets[c.index]
		added := s.Nodes.Clone()
		added.AndNot(covered)
		covered.Or(s.Nodes)
		step := Step{
			ID:                 s.ID,
			Index:              c.index,
			Added:              c.gain,
			AddedProject:       added.IntersectionLen(cov.ProjectMask),
			AddedOverall:       added.Len(),
			AddedNodes:         added.Elems(),
			AddedImpactSeconds: c.impact,
			ImpactSeconds:      s.ImpactSeconds,
			ImpactShare:        s.ImpactShare,
		}
		step.CumulativeProject, step.CumulativeOverall = cov.Ratios(covered)
		prev := 0.0
		if len(res.Steps) > 0 {
			prev = res.Steps[len(res.Steps)-1].CumulativeImpactSeconds
		}
		step.CumulativeImpactSeconds = prev + c.impact
		res.Steps = append(res.Steps, step)
	}
	return res
}

// addedImpact is the flat time of the nodes of s not in covered, summed in
// increasing id order.
func addedImpact(cov *coverage.Result, s, covered bitset.Set) float64 {
	var sum float64
	nodes := cov.App.Nodes
	for wi, w := range s {
		w &^= covered[wi]
		for w != 0 {
			b := w & -w
			sum += nodes[wi<<6+bits.TrailingZeros64(b)].Flat
			w &^= b
		}
	}
	return sum
}

type candidate struct {
	index  int
	gain   int
	impact float64
}

// better orders candidates by larger gain, larger added impact, smaller
// benchmark graph, smaller id.
func better(sets []coverage.Set, a, b *candidate) bool {
	if a.gain != b.gain {
		return a.gain > b.gain
	}
	if a.impact != b.impact {
		return a.impact > b.impact
	}
	sa, sb := &sets[a.index], &sets[b.index]
	if sa.GraphNodes != sb.GraphNodes {
		return sa.GraphNodes < sb.GraphNodes
	}
	return sa.ID < sb.ID
}
