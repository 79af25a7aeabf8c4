package analysis

import (
	"fmt"
	"regexp"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/input"
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

// scenarioName is the syntax of a scenario name; see ValidScenarioName.
var scenarioName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// ValidScenarioName reports whether name can name a scenario: a letter or
// digit followed by letters, digits, '_', '.' and '-'. Such a name needs no
// quoting in a shell word, a file name or NAME=VALUE syntax.
func ValidScenarioName(name string) bool { return scenarioName.MatchString(name) }

// checkScenarios checks that every scenario has a valid, unique name and
// at least one file.
func checkScenarios(specs []ScenarioSpec) error {
	seen := map[string]bool{}
	for i, sc := range specs {
		switch {
		case !ValidScenarioName(sc.Name):
			return input.Errorf("%s[%d].Name %q: a scenario name is a letter or digit followed by letters, digits, '_', '.' and '-'", input.Field("Scenarios"), i, sc.Name)
		case seen[sc.Name]:
			return input.Errorf("%s: two scenarios are named %q; give each its own name, or list both files in one", input.Field("Scenarios"), sc.Name)
		case len(sc.Files) == 0:
			return input.Errorf("%s[%d] (%s) has no Files", input.Field("Scenarios"), i, sc.Name)
		}
		seen[sc.Name] = true
	}
	return nil
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
			return nil, false, input.Wrap(fmt.Errorf("scenario %s: application profile %w", sc.Name, err))
		}
		scs = append(scs, coverage.Scenario{Name: sc.Name, Graph: g, Weight: sc.Weight})
		weighted = weighted || sc.Weighted
	}
	return coverage.Scenarios(app, scs, benches), weighted, nil
}
