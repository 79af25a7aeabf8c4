package analysis

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/manifest"
	"github.com/mbopt/mbopt/optimize"
)

// ScenarioSpec is one named application workload.
type ScenarioSpec struct {
	// Name is the scenario's name.
	Name string
	// Files are its profiles, merged.
	Files []string
	// Weight is its weight in the union suite; 0 means 1. Weighted
	// reports whether it was given explicitly (NAME=FILE:WEIGHT): if any
	// scenario is weighted, the suite is optimised for the weighted union.
	Weight   float64
	Weighted bool
}

// SelectConfig configures the selection beyond Algorithm 2 (see
// optimize.Select). The zero value selects nothing beyond it.
type SelectConfig struct {
	Objective optimize.Objective
	// Budget bounds the suite's summed benchmark cost, in seconds; 0 means
	// no budget.
	Budget float64
	// Costs maps benchmark ids to seconds. CostsFile, when set, is read
	// with [ReadCosts] and overrides Costs. Without either, a budget takes
	// costs from the manifest.json files (package manifest) among the Micro directories.
	Costs     map[string]float64
	CostsFile string
	// DefaultCost is the cost of benchmarks without one; 0 makes them an
	// error under a budget.
	DefaultCost float64
	Top         int
	MinGain     int
}

func (c SelectConfig) active() bool {
	return c.Objective != optimize.NodeCount || c.Budget != 0 || c.Top != 0 || c.MinGain != 0 || c.CostsFile != "" || c.Costs != nil || c.DefaultCost != 0
}

var scenarioName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// ParseApps reads --app values: either all plain files (merged into one
// application) or all NAME=FILE[:WEIGHT] (named scenarios; repeating a
// name adds a file to it, and a weight given twice must agree). It returns
// every file in order (for [Config.App]) and the scenarios, nil for plain
// files. A value that names an existing file is always a file, so paths
// with "=" still work.
func ParseApps(args []string) (files []string, scenarios []ScenarioSpec, err error) {
	index := map[string]int{}
	plain := 0
	for _, a := range args {
		name, rest, ok := strings.Cut(a, "=")
		if _, statErr := os.Stat(a); statErr == nil || !ok || !scenarioName.MatchString(name) {
			plain++
			files = append(files, a)
			continue
		}
		file, weight, weighted := rest, 0.0, false
		if i := strings.LastIndex(rest, ":"); i >= 0 {
			if w, perr := strconv.ParseFloat(rest[i+1:], 64); perr == nil {
				if !(w > 0) || w > 1e9 {
					return nil, nil, inputf("--app %s: the weight must be a positive number, not %s", a, rest[i+1:])
				}
				file, weight, weighted = rest[:i], w, true
			}
		}
		if file == "" {
			return nil, nil, inputf("--app %s: no file after %q", a, name+"=")
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
				return nil, nil, inputf("--app: scenario %s has two weights, %g and %g", name, sc.Weight, weight)
			}
			sc.Weight, sc.Weighted = weight, true
		}
	}
	if plain > 0 && len(scenarios) > 0 {
		return nil, nil, inputf("--app: give every application profile a scenario name (NAME=FILE) or none; %d of %d have none", plain, len(args))
	}
	return files, scenarios, nil
}

// extend computes what Config asks beyond coverage and Algorithm 2:
// scenarios, the selection and the certificate.
func extend(cfg Config, rep *Report, opts callgraph.Options, benches []coverage.Benchmark, manifests []dirManifest) error {
	weighted := false
	if len(cfg.Scenarios) >= 2 {
		var scs []coverage.Scenario
		for _, sc := range cfg.Scenarios {
			g, err := callgraph.Load(sc.Files, opts)
			if err != nil {
				return asInput(fmt.Errorf("scenario %s: application profile %w", sc.Name, err))
			}
			scs = append(scs, coverage.Scenario{Name: sc.Name, Graph: g, Weight: sc.Weight})
			weighted = weighted || sc.Weighted
		}
		rep.Scenarios = coverage.Scenarios(rep.Coverage.App, scs, benches)
	}
	sc := cfg.Select
	if sc.active() || weighted {
		plan := optimize.Plan{
			Nodes: cfg.Nodes, Objective: sc.Objective, Budget: sc.Budget,
			Costs: sc.Costs, DefaultCost: sc.DefaultCost, Top: sc.Top, MinGain: sc.MinGain,
		}
		if weighted {
			plan.Weights = rep.Scenarios.NodeWeights(sc.Objective == optimize.Impact)
		}
		if sc.CostsFile != "" {
			costs, err := ReadCosts(sc.CostsFile)
			if err != nil {
				return asInput(err)
			}
			plan.Costs = costs
		} else if plan.Costs == nil {
			if costs, found := manifestCosts(manifests); found != nil {
				plan.Costs = costs
				rep.Warnings = append(rep.Warnings, fmt.Sprintf("benchmark costs taken from %s", strings.Join(found, ", ")))
			}
		}
		sel, err := optimize.Select(rep.Coverage, plan)
		if err != nil {
			hint := ""
			if plan.Budget > 0 {
				hint = " (pass --costs FILE, collect with 'mbopt profile' to get a manifest.json, or set --default-cost)"
			}
			return inputf("selecting the suite: %v%s", err, hint)
		}
		rep.Selection = sel
		rep.Suite = sel.Result()
	}
	if cfg.Certify {
		c, err := optimize.Certify(rep.Coverage, optimize.CertifyOptions{Nodes: cfg.Nodes})
		if err != nil {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("no optimality certificate: %v", err))
		} else {
			rep.Certificate = c
		}
	}
	return nil
}

// manifestCosts merges the costs of the manifests (see
// [manifest.Manifest.Costs]) and returns them with the manifest files they
// came from; nil when there is no manifest.
func manifestCosts(ms []dirManifest) (map[string]float64, []string) {
	if len(ms) == 0 {
		return nil, nil
	}
	costs := map[string]float64{}
	var files []string
	for _, m := range ms {
		maps.Copy(costs, m.Costs())
		files = append(files, filepath.Join(m.dir, manifest.FileName))
	}
	return costs, files
}

// ReadCosts reads benchmark costs in seconds from path: a JSON object
// mapping benchmark ids to seconds, a collection manifest (a JSON object
// with a "benchmarks" list, see [manifest.Manifest.Costs]), or CSV lines
// "id,seconds" (a first line whose second field is not a number is a
// header). Errors name the file and line.
func ReadCosts(path string) (map[string]float64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading costs: %w", err)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(trimmed, &probe); err != nil {
			return nil, fmt.Errorf("%s: not a JSON object of id → seconds: %w", path, err)
		}
		if _, ok := probe["benchmarks"]; ok {
			m, err := manifest.Read(bytes.NewReader(trimmed), path)
			if err != nil {
				return nil, err
			}
			return m.Costs(), nil
		}
		costs := map[string]float64{}
		if err := json.Unmarshal(trimmed, &costs); err != nil {
			return nil, fmt.Errorf("%s: not a JSON object of id → seconds: %w", path, err)
		}
		return costs, nil
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = 2
	cr.TrimLeadingSpace = true
	costs := map[string]float64{}
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: want CSV lines \"id,seconds\": %w", path, err)
		}
		v, err := strconv.ParseFloat(rec[1], 64)
		if err != nil {
			if line == 1 {
				continue // header
			}
			pos, _ := cr.FieldPos(1)
			return nil, fmt.Errorf("%s:%d: cost %q is not a number of seconds", path, pos, rec[1])
		}
		costs[rec[0]] = v
	}
	return costs, nil
}
