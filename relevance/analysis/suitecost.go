package analysis

import (
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
)

// SuiteCost compares the running cost of Algorithm 2's suite with the
// cheapest suite of the same coverage that [optimize.Select] finds with
// the [optimize.Cost] objective. Costs are in seconds.
type SuiteCost struct {
	// Source is where the costs came from.
	Source CostSource
	// Algorithm2 is the summed cost of Algorithm 2's suite
	// ([optimize.Greedy] with Config.Nodes).
	Algorithm2 float64
	// Algorithm2Size is the number of benchmarks in Algorithm 2's suite.
	Algorithm2Size int
	// Cheapest is the summed cost of the Cost objective's suite, which
	// covers the same counted nodes. Cheapest ≤ Algorithm2 always.
	Cheapest float64
	// CheapestSize is the number of benchmarks in the Cost objective's
	// suite.
	CheapestSize int
}

// suiteCost compares Algorithm 2's suite alg2 with the Cost objective's
// suite (cheap when the selection already is one, else computed here).
// It returns nil when some benchmark that covers a counted node has no
// cost (and there is no DefaultCost): then the costs are not known.
func suiteCost(cfg Config, cov *coverage.Result, alg2 *optimize.Result, cheap *optimize.Selection, costs map[string]float64, src CostSource) *SuiteCost {
	if costs == nil && cfg.Select.DefaultCost == 0 {
		return nil
	}
	if cheap == nil || cheap.Objective != optimize.Cost {
		var err error
		cheap, err = optimize.Select(cov, optimize.Plan{Nodes: cfg.Nodes, Impact: cfg.Impact, Objective: optimize.Cost, Costs: costs, DefaultCost: cfg.Select.DefaultCost})
		if err != nil {
			return nil
		}
	}
	sc := &SuiteCost{Source: src, Algorithm2Size: len(alg2.Steps), Cheapest: cheap.TotalCost, CheapestSize: len(cheap.Steps)}
	for _, st := range alg2.Steps {
		c, ok := costs[st.ID]
		if !ok {
			c = cfg.Select.DefaultCost
		}
		sc.Algorithm2 += c
	}
	return sc
}
