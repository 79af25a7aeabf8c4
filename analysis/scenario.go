package analysis

import (
	"fmt"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
)

// ScenarioSpec is one named application workload.
type ScenarioSpec struct {
	// Name is the scenario's name, unique among Config.Scenarios.
	Name string
	// Files are its profiles, merged.
	Files []string
	// Weight is its weight in the union suite; 0 means 1. Weighted
	// reports whether it was given explicitly: if any scenario is
	// weighted, the suite is optimised for the weighted union.
	Weight float64
	// Weighted reports that Weight was set by the user, see Weight.
	Weighted bool
}

// compareScenarios loads every scenario's graph and compares the scenarios
// with benches over the union graph app; nil with fewer than two
// scenarios. weighted reports whether any scenario has an explicit weight.
func compareScenarios(specs []ScenarioSpec, app *callgraph.Graph, opts callgraph.Options, benches []coverage.Benchmark) (ss *coverage.ScenarioSet, weighted bool, err error) {
	if len(specs) < 2 {
		return nil, false, nil
	}
	var scs []coverage.Scenario
	for _, sc := range specs {
		g, err := callgraph.Load(sc.Files, opts)
		if err != nil {
			return nil, false, asInput(fmt.Errorf("scenario %s: application profile %w", sc.Name, err))
		}
		scs = append(scs, coverage.Scenario{Name: sc.Name, Graph: g, Weight: sc.Weight})
		weighted = weighted || sc.Weighted
	}
	return coverage.Scenarios(app, scs, benches), weighted, nil
}
