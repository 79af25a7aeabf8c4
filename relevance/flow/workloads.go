package flow

import (
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// ParseWorkloads reads workload commands written as mbopt's --app-cmd flag
// takes them: at most one plain command (for Config.AppCommand), or
// NAME=CMD scenarios (for Config.AppWorkloads; NAME as in
// analysis.ParseApps). A value is NAME=CMD when what comes before its first
// "=" is a valid scenario name; a name that looks like an environment
// variable (upper case, digits and '_', such as GOGC) is refused as
// ambiguous. Its errors are input errors naming AppCommand and
// AppWorkloads.
func ParseWorkloads(values []string) (plain string, workloads []Workload, err error) {
	for _, v := range values {
		name, cmd, ok := strings.Cut(v, "=")
		if !ok || !analysis.ValidScenarioName(name) {
			if plain != "" {
				return "", nil, mbopt.Errorf("%s: two unnamed workload commands; give one, or name each as a scenario: %s", FieldAppCommand, FieldAppWorkloads)
			}
			plain = v
			continue
		}
		if strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == "" {
			return "", nil, mbopt.Errorf("%s %s: %s= could be a scenario name or an environment variable; write 'env %s=...' for a variable, or name the scenario in lower case", FieldAppCommand, v, name, name)
		}
		if strings.TrimSpace(cmd) == "" {
			return "", nil, mbopt.Errorf("%s %s: no command after %q", FieldAppCommand, v, name+"=")
		}
		workloads = append(workloads, Workload{Name: name, Command: cmd})
	}
	return plain, workloads, nil
}

// WorkloadWeights sets the weights (NAME=WEIGHT, as analysis.ParseApps
// takes them) that name a workload scenario, and no scenario of apps, on
// workloads, and returns the other weights, for analysis.ParseApps.
func WorkloadWeights(apps, weights []string, workloads []Workload) ([]string, error) {
	_, specs, err := analysis.ParseApps(apps, nil)
	if err != nil {
		return nil, err
	}
	fromApp := map[string]bool{}
	for _, sc := range specs {
		fromApp[sc.Name] = true
	}
	var rest []string
	for _, w := range weights {
		name, value, _ := strings.Cut(w, "=")
		i := slices.IndexFunc(workloads, func(wl Workload) bool { return wl.Name == name })
		if i < 0 || fromApp[name] {
			rest = append(rest, w)
			continue
		}
		v, err := analysis.ParseWeight(value)
		if err != nil {
			return nil, mbopt.Errorf("%s %s: %w", analysis.FieldScenariosWeight, w, err)
		}
		if wl := &workloads[i]; wl.Weighted && wl.Weight != v {
			return nil, mbopt.Errorf("%s: scenario %s has two weights, %g and %g", analysis.FieldScenariosWeight, name, wl.Weight, v)
		}
		workloads[i].Weight, workloads[i].Weighted = v, true
	}
	return rest, nil
}
