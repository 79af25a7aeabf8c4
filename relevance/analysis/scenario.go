package analysis

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt"
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
			return mbopt.Errorf("%s[%d].Name %q: a scenario name is a letter or digit followed by letters, digits, '_', '.' and '-'", FieldScenarios, i, sc.Name)
		case seen[sc.Name]:
			return mbopt.Errorf("%s: two scenarios are named %q; give each its own name, or list both files in one", FieldScenarios, sc.Name)
		case len(sc.Files) == 0:
			return mbopt.Errorf("%s[%d] (%s) has no Files", FieldScenarios, i, sc.Name)
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
			return nil, false, mbopt.Wrap(fmt.Errorf("scenario %s: application profile %w", sc.Name, err))
		}
		scs = append(scs, coverage.Scenario{Name: sc.Name, Graph: g, Weight: sc.Weight})
		weighted = weighted || sc.Weighted
	}
	return coverage.Scenarios(app, scs, benches), weighted, nil
}

// ParseApps reads application profiles and scenario weights written as
// mbopt's --app and --weight flags take them. The apps are either all
// plain files (merged into one application) or all NAME=FILE[:WEIGHT]
// (named scenarios; repeating a name adds a file to it, and a weight given
// twice must agree); the weights are NAME=WEIGHT. It returns every file in
// order (for Config.App) and the scenarios (for Config.Scenarios), nil for
// plain files. Its errors are input errors naming the fields App and
// Scenarios.Weight.
//
// An app that names an existing file is always a file, so paths with "="
// still work. In NAME=FILE:W the weight is W when W is a number and FILE:W
// is not an existing file. A weight NAME=W weights scenario NAME without
// that short form: the apps of a scenario with such a weight are file names
// as written, so a file named "data:2" is q=data:2 with the weight q=1.
func ParseApps(apps, weights []string) (files []string, scenarios []ScenarioSpec, err error) {
	explicit := map[string]float64{}
	var order []string
	for _, w := range weights {
		name, value, ok := strings.Cut(w, "=")
		if !ok || !ValidScenarioName(name) {
			return nil, nil, mbopt.Errorf("%s %s: want NAME=WEIGHT, where NAME is a scenario of %s NAME=FILE", FieldScenariosWeight, w, FieldApp)
		}
		v, err := ParseWeight(value)
		if err != nil {
			return nil, nil, mbopt.Errorf("%s %s: %w", FieldScenariosWeight, w, err)
		}
		if old, seen := explicit[name]; seen && old != v {
			return nil, nil, mbopt.Errorf("%s: scenario %s has two weights, %g and %g", FieldScenariosWeight, name, old, v)
		}
		if _, seen := explicit[name]; !seen {
			order = append(order, name)
		}
		explicit[name] = v
	}
	index := map[string]int{}
	plain := 0
	for _, a := range apps {
		name, rest, ok := strings.Cut(a, "=")
		if _, statErr := os.Stat(a); statErr == nil || !ok || !ValidScenarioName(name) {
			plain++
			files = append(files, a)
			continue
		}
		file, weight, weighted := rest, 0.0, false
		_, byFlag := explicit[name]
		if i := strings.LastIndex(rest, ":"); i >= 0 && !byFlag && !isFile(rest) {
			if _, perr := strconv.ParseFloat(rest[i+1:], 64); perr == nil {
				w, err := ParseWeight(rest[i+1:])
				if err != nil {
					return nil, nil, mbopt.Errorf("%s %s: %w", FieldApp, a, err)
				}
				file, weight, weighted = rest[:i], w, true
			}
		}
		if file == "" {
			return nil, nil, mbopt.Errorf("%s %s: no file after %q", FieldApp, a, name+"=")
		}
		files = append(files, file)
		j, seen := index[name]
		if !seen {
			index[name] = len(scenarios)
			scenarios = append(scenarios, ScenarioSpec{Name: name, Files: []string{file}, Weight: weight, Weighted: weighted})
			continue
		}
		sc := &scenarios[j]
		sc.Files = append(sc.Files, file)
		if weighted {
			if sc.Weighted && sc.Weight != weight {
				return nil, nil, mbopt.Errorf("%s: scenario %s has two weights, %g and %g", FieldApp, name, sc.Weight, weight)
			}
			sc.Weight, sc.Weighted = weight, true
		}
	}
	if plain > 0 && len(scenarios) > 0 {
		return nil, nil, mbopt.Errorf("%s: give every application profile a scenario name (NAME=FILE) or none; %d of %d have none", FieldApp, plain, len(apps))
	}
	for _, name := range order {
		j, ok := index[name]
		if !ok {
			return nil, nil, mbopt.Errorf("%s %s=%g: no %s %s=FILE names that scenario", FieldScenariosWeight, name, explicit[name], FieldApp, name)
		}
		scenarios[j].Weight, scenarios[j].Weighted = explicit[name], true
	}
	return files, scenarios, nil
}

// ParseWeight parses a scenario weight: a positive number up to 1e9.
func ParseWeight(s string) (float64, error) {
	w, err := strconv.ParseFloat(s, 64)
	if err != nil || !(w > 0) || w > 1e9 {
		return 0, mbopt.Errorf("the weight must be a positive number, not %s", s)
	}
	return w, nil
}

// isFile reports whether path names an existing file.
func isFile(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
