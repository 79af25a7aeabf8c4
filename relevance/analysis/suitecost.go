package analysis

import (
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
)

// SuiteCost compares the running cost of Algorithm 2's suite with the
// cheapest suite of the same coverage that [optimize.Select] finds with
// the [optimize.Cost] objective and, when another selection chose the
// suite ([Report.Selection] under another objective or a budget), with
// that suite's. Costs are in seconds.
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
	// Selected is the cost of the selected suite ([Report.Suite]) when
	// a selection other than the Cost objective's chose it; nil when the
	// suite is Algorithm 2's or the cheapest.
	Selected *SelectedCost
}

// SelectedCost is the running cost of the selected suite, in seconds.
type SelectedCost struct {
	// Objective is the selection's objective ([optimize.Selection]).
	Objective optimize.Objective
	// Weighted reports that the scenarios' weights weighed the picks.
	Weighted bool
	// Budget is the selection's budget in seconds; 0 when none.
	Budget float64
	// Seconds sums the suite's benchmark costs.
	Seconds float64
	// Size is the number of benchmarks in the suite.
	Size int
}

// suiteCost compares Algorithm 2's suite alg2 with the Cost objective's
// suite (sel when the selection is one, else computed here) and with the
// selected suite sel, when not nil, of another objective or a budget.
// It returns nil when some benchmark that covers a counted node has no
// cost (and there is no DefaultCost): then the costs are not known.
func suiteCost(cfg Config, cov *coverage.Result, alg2 *optimize.Result, sel *optimize.Selection, costs map[string]float64, src CostSource) *SuiteCost {
	if costs == nil && cfg.Select.DefaultCost == 0 {
		return nil
	}
	cost := func(steps []optimize.Step) float64 {
		sum := 0.0
		for _, st := range steps {
			c, ok := costs[st.ID]
			if !ok {
				c = cfg.Select.DefaultCost
			}
			sum += c
		}
		return sum
	}
	cheap := sel
	if cheap == nil || cheap.Objective != optimize.Cost {
		var err error
		cheap, err = optimize.Select(cov, optimize.Plan{Nodes: cfg.Nodes, Impact: cfg.Impact, Objective: optimize.Cost, Costs: costs, DefaultCost: cfg.Select.DefaultCost})
		if err != nil {
			return nil
		}
	}
	sc := &SuiteCost{Source: src, Algorithm2: cost(alg2.Steps), Algorithm2Size: len(alg2.Steps), Cheapest: cheap.TotalCost, CheapestSize: len(cheap.Steps)}
	if sel != nil && sel != cheap {
		steps := sel.Result().Steps
		sc.Selected = &SelectedCost{Objective: sel.Objective, Weighted: sel.Weighted, Budget: sel.Budget, Seconds: cost(steps), Size: len(steps)}
	}
	return sc
}
