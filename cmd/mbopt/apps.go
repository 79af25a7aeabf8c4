package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/input"
)

// parseApps reads the --app and --weight values: the --app values are
// either all plain files (merged into one application) or all
// NAME=FILE[:WEIGHT] (named scenarios; repeating a name adds a file to it,
// and a weight given twice must agree). It returns every file in order (for
// analysis.Config.App) and the scenarios, nil for plain files.
//
// A value that names an existing file is always a file, so paths with "="
// still work. In NAME=FILE:W the weight is W when W is a number and FILE:W
// is not an existing file. --weight NAME=W weights scenario NAME without
// that short form: the --app values of a scenario with a --weight are file
// names as written, so a file named "data:2" is --app q=data:2 --weight q=1.
func parseApps(apps, weights []string) (files []string, scenarios []analysis.ScenarioSpec, err error) {
	explicit := map[string]float64{}
	var order []string
	for _, w := range weights {
		name, value, ok := strings.Cut(w, "=")
		if !ok || !analysis.ValidScenarioName(name) {
			return nil, nil, badInputf("--weight %s: want NAME=WEIGHT, where NAME is a scenario of --app NAME=FILE", w)
		}
		v, err := parseWeight(value)
		if err != nil {
			return nil, nil, badInputf("--weight %s: %v", w, err)
		}
		if old, seen := explicit[name]; seen && old != v {
			return nil, nil, badInputf("--weight: scenario %s has two weights, %g and %g", name, old, v)
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
		if _, statErr := os.Stat(a); statErr == nil || !ok || !analysis.ValidScenarioName(name) {
			plain++
			files = append(files, a)
			continue
		}
		file, weight, weighted := rest, 0.0, false
		_, byFlag := explicit[name]
		if i := strings.LastIndex(rest, ":"); i >= 0 && !byFlag && !isFile(rest) {
			if _, perr := strconv.ParseFloat(rest[i+1:], 64); perr == nil {
				w, err := parseWeight(rest[i+1:])
				if err != nil {
					return nil, nil, badInputf("--app %s: %v", a, err)
				}
				file, weight, weighted = rest[:i], w, true
			}
		}
		if file == "" {
			return nil, nil, badInputf("--app %s: no file after %q", a, name+"=")
		}
		files = append(files, file)
		j, seen := index[name]
		if !seen {
			index[name] = len(scenarios)
			scenarios = append(scenarios, analysis.ScenarioSpec{Name: name, Files: []string{file}, Weight: weight, Weighted: weighted})
			continue
		}
		sc := &scenarios[j]
		sc.Files = append(sc.Files, file)
		if weighted {
			if sc.Weighted && sc.Weight != weight {
				return nil, nil, badInputf("--app: scenario %s has two weights, %g and %g", name, sc.Weight, weight)
			}
			sc.Weight, sc.Weighted = weight, true
		}
	}
	if plain > 0 && len(scenarios) > 0 {
		return nil, nil, badInputf("--app: give every application profile a scenario name (NAME=FILE) or none; %d of %d have none", plain, len(apps))
	}
	for _, name := range order {
		j, ok := index[name]
		if !ok {
			return nil, nil, badInputf("--weight %s=%g: no --app %s=FILE names that scenario", name, explicit[name], name)
		}
		scenarios[j].Weight, scenarios[j].Weighted = explicit[name], true
	}
	return files, scenarios, nil
}

// parseWeight parses a scenario weight: a positive number up to 1e9.
func parseWeight(s string) (float64, error) {
	w, err := strconv.ParseFloat(s, 64)
	if err != nil || !(w > 0) || w > 1e9 {
		return 0, badInputf("the weight must be a positive number, not %s", s)
	}
	return w, nil
}

// isFile reports whether path names an existing file.
func isFile(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// flagOf maps the library's settings (analysis.Field paths, also those of
// pipeline.Config) to the flags that set them, so library errors and
// warnings read in the command's vocabulary.
var flagOf = map[input.Field]string{
	"App":                      "--app",
	"Micro":                    "--micro",
	"Modules":                  "--module",
	"Exclude":                  "--exclude",
	"Targets":                  "--targets",
	"Strict":                   "--strict",
	"Impact":                   "--impact",
	"Recommend":                "--recommend",
	"KeepNegligible":           "--keep-negligible",
	"Edges":                    "--edges",
	"AppFunctions":             "--app-cover",
	"Static.Dir":               "--static-dir",
	"Select.Objective":         "--objective",
	"Select.Budget":            "--budget",
	"Select.CostsFile":         "--costs",
	"Select.DefaultCost":       "--default-cost",
	"Select.Top":               "--top",
	"Select.MinGain":           "--min-gain",
	"Select.ExcludeBenchmarks": "--max-instability",
	"AppURL":                   "--app-url",
	"AppSeconds":               "--app-seconds",
	"AppPGO":                   "--app-pgo",
	"AppCommand":               "--app-cmd",
	"AppRuns":                  "--app-runs",
	"AppWorkloads":             "--app-cmd NAME=CMD",
	"AppOut":                   "--app-out",
	"Collect.Out":              "--out",
	"Collect.Dir":              "DIR",
}

// flagName names a library setting by its flag, or as Go does when no flag
// sets it.
func flagName(f input.Field) string {
	if name, ok := flagOf[f]; ok {
		return name
	}
	return f.String()
}

// fieldTexter is implemented by the library's errors and warnings that name
// settings (input.Error and the analysis warnings with a Text method).
type fieldTexter interface {
	error
	Text(name func(input.Field) string) string
}

// flagWorded is a library error or warning worded with flag names. It
// unwraps to the library's value, so errors.Is and errors.As still see it.
type flagWorded struct{ err fieldTexter }

func (e flagWorded) Error() string { return e.err.Text(flagName) }
func (e flagWorded) Unwrap() error { return e.err }

// inFlagWords rewords err with flag names when it (not an error it wraps)
// names library settings; other errors are returned as they are.
func inFlagWords(err error) error {
	if t, ok := err.(fieldTexter); ok {
		return flagWorded{t}
	}
	return err
}
