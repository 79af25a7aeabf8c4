package recommend

import (
	"slices"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/bitset"
)

// A Shortfall says why fewer recommendations came out than were asked
// for: each uncovered project function after the picks is either
// Withheld or NotTarget; with neither, the picks cover every project
// function of the application graph.
type Shortfall struct {
	// Asked is Options.N; Given the number of recommendations.
	Asked, Given int
	// Withheld is the number of project functions withheld because a thin
	// benchmark may have run them unseen (len(Result.Withheld)): a longer
	// profile or exact coverage shows whether they run.
	Withheld int
	// NotTarget is the number of the other uncovered project functions:
	// those no candidate reaches, such as a closure of a covered function
	// (with [Callable] targets) or a function of a package
	// Options.NotTarget leaves out.
	NotTarget int
}

// shortfall returns why res has fewer than n recommendations, nil when
// it has n or n is no limit; covered are the nodes covered after the
// picks.
func shortfall(g *callgraph.Graph, covered bitset.Set, n int, res *Result) *Shortfall {
	if n <= 0 || len(res.Recommendations) >= n {
		return nil
	}
	s := &Shortfall{Asked: n, Given: len(res.Recommendations), Withheld: len(res.Withheld)}
	for v, node := range g.Nodes {
		if node.Project && !covered.Has(v) && !withheld(res.Withheld, v) {
			s.NotTarget++
		}
	}
	return s
}

// withheld reports whether v is in ids (increasing).
func withheld(ids []int, v int) bool {
	_, ok := slices.BinarySearch(ids, v)
	return ok
}
