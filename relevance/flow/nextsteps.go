package flow

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/internal/textutil"
)

// NextSteps returns the lines of a log that say where Run put the profiles,
// ending with one that introduces the commands: the mbopt suite and mbopt
// report command lines (quoted for a POSIX shell) that analyse them again
// without profiling. App (with its scenarios and weights), Micro and
// Modules of r.Analysis reproduce the analysis, and extra holds each
// command's other flags ("suite", "report"). dir is Run's Collect.Dir, in
// whose state directory the report goes.
func (r *Result) NextSteps(extra map[string][]string, dir string) (lines, commands []string) {
	ac := r.Analysis
	for _, t := range r.Taken {
		line := "application profile"
		if t.Scenario != "" {
			line += " (scenario " + t.Scenario + ")"
		}
		line += ": " + t.File
		if t.Log != "" {
			line += " (workload output: " + t.Log + ")"
		}
		lines = append(lines, line)
	}
	lines = append(lines, fmt.Sprintf("benchmark profiles: %s (%s)", strings.Join(ac.Micro, ", "), textutil.Plural(len(r.Manifest.Benchmarks), "benchmark")))
	var args []string
	if len(ac.Scenarios) > 0 {
		for _, sc := range ac.Scenarios {
			for _, f := range sc.Files {
				args = append(args, "--app", sc.Name+"="+f)
			}
		}
		for _, sc := range ac.Scenarios {
			if sc.Weighted {
				args = append(args, "--weight", fmt.Sprintf("%s=%g", sc.Name, sc.Weight))
			}
		}
	} else {
		for _, f := range ac.App {
			args = append(args, "--app", f)
		}
	}
	for _, m := range ac.Micro {
		args = append(args, "--micro", m)
	}
	for _, m := range ac.Modules {
		args = append(args, "--module", m)
	}
	suite := append(append([]string{"mbopt", "suite"}, args...), extra["suite"]...)
	report := append(append(append([]string{"mbopt", "report"}, args...), extra["report"]...), "--out", filepath.Join(dir, StateDir, "report"))
	return append(lines, "to analyse these profiles again without profiling (from this directory):"),
		[]string{shellLine(suite), shellLine(report)}
}

// shellLine joins words into a command line a POSIX shell reads back as
// those words.
func shellLine(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = textutil.ShellQuote(w)
	}
	return strings.Join(quoted, " ")
}
