package analysis

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/callgraph"

	"github.com/mbopt/mbopt/internal/textutil"
)

// resolveExclude turns Config.Exclude into import path patterns: a relative
// pattern ("./cmd/...", ".") becomes one pattern per module, the others are
// kept. Every result is checked with callgraph.MatchPattern.
func resolveExclude(patterns, mods []string) ([]string, error) {
	var out []string
	for i, p := range patterns {
		rel, ok := relative(p)
		if !ok {
			if _, err := callgraph.MatchPattern(p); err != nil {
				return nil, fieldErrorf("%s[%d]: %w", Field("Exclude"), i, err)
			}
			out = append(out, p)
			continue
		}
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, fieldErrorf("%s[%d]: %q leaves the module; a relative pattern must stay inside it (%q names the module root)", Field("Exclude"), i, p, "./...")
		}
		for _, m := range mods {
			r := strings.TrimSuffix(m, "/")
			if rel != "." {
				r += "/" + rel
			}
			if _, err := callgraph.MatchPattern(r); err != nil {
				return nil, fieldErrorf("%s[%d]: %w", Field("Exclude"), i, err)
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// relative reports whether p is a relative pattern and returns it cleaned
// ("./cmd/..." → "cmd/...", "./" → ".").
func relative(p string) (string, bool) {
	if p != "." && p != ".." && !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
		return "", false
	}
	return path.Clean(p), true
}

// unmatchedExcludes warns about each Config.Exclude pattern that matches no
// function of the module in the application graph: likely a typo.
func unmatchedExcludes(given, resolved []string, mods []string, app *callgraph.Graph) []error {
	if len(given) == 0 {
		return nil
	}
	var warnings []error
	next := 0
	for _, p := range given {
		n := 1
		if _, ok := relative(p); ok {
			n = len(mods)
		}
		hit := false
		for _, r := range resolved[next : next+n] {
			match, _ := callgraph.MatchPattern(r)
			for i := range app.Nodes {
				if pkg := app.Nodes[i].Package; match(pkg) && below(pkg, mods) {
					hit = true
					break
				}
			}
		}
		next += n
		if !hit {
			warnings = append(warnings, &ExcludeUnmatchedWarning{Pattern: p, Resolved: resolved[next-n : next]})
		}
	}
	return warnings
}

func below(pkg string, mods []string) bool {
	for _, m := range mods {
		if callgraph.IsBelow(pkg, m) {
			return true
		}
	}
	return false
}

// ExcludeUnmatchedWarning says that a Config.Exclude pattern matches no
// project function of the application profile, so it excludes nothing.
type ExcludeUnmatchedWarning struct {
	// Pattern is the pattern as given.
	Pattern string
	// Resolved are the import path patterns it stands for (one per
	// module for a relative pattern).
	Resolved []string
}

// Error returns the warning with the Exclude field named as Go code names it.
func (w *ExcludeUnmatchedWarning) Error() string { return w.Text(Field.String) }

// Text returns the warning with the Exclude field named by name.
func (w *ExcludeUnmatchedWarning) Text(name func(Field) string) string {
	s := fmt.Sprintf("%s %s matches no project function of the application", name("Exclude"), w.Pattern)
	if len(w.Resolved) != 1 || w.Resolved[0] != w.Pattern {
		s += fmt.Sprintf(" (%s)", strings.Join(w.Resolved, ", "))
	}
	return s + "; check the pattern against the package paths in the profile"
}

// DriverTargetWarning says that recommendations point into a cmd/
// directory of the project, where a module usually keeps its commands and
// workload drivers: code a microbenchmark should not target. Callable
// targets already leave out package main; a driver in a library package
// under cmd/ is callable Go code, so only Config.Exclude can tell it apart.
type DriverTargetWarning struct {
	// Functions are the recommended functions under cmd/, in
	// recommendation order.
	Functions []string
	// Pattern is the Exclude pattern that leaves out the first one's cmd/
	// directory, relative to its module ("./cmd/...").
	Pattern string
}

// Error returns the warning with the Exclude field named as Go code names it.
func (w *DriverTargetWarning) Error() string { return w.Text(Field.String) }

// Text returns the warning with the Exclude field named by name.
func (w *DriverTargetWarning) Text(name func(Field) string) string {
	lie := "lie"
	if len(w.Functions) == 1 {
		lie = "lies"
	}
	return fmt.Sprintf("%s %s under a cmd/ directory (%s): if that is a command or workload driver rather than library code, leave it out with %s %s",
		textutil.Plural(len(w.Functions), "recommendation"), lie, strings.Join(w.Functions, ", "), name("Exclude"), w.Pattern)
}

// driverTargets returns a *DriverTargetWarning for the recommendations
// whose package lies under a "cmd" path element below its project module,
// or nil when there is none.
func driverTargets(rep *Report) error {
	if rep.Recommendations == nil {
		return nil
	}
	var w *DriverTargetWarning
	for _, r := range rep.Recommendations.Recommendations {
		for _, mod := range rep.Modules {
			rel, ok := strings.CutPrefix(r.Package, strings.TrimSuffix(mod, "/")+"/")
			if !ok {
				continue
			}
			elems := strings.Split(rel, "/")
			i := slices.Index(elems, "cmd")
			if i < 0 {
				continue
			}
			if w == nil {
				w = &DriverTargetWarning{Pattern: "./" + strings.Join(elems[:i+1], "/") + "/..."}
			}
			w.Functions = append(w.Functions, r.Function)
			break
		}
	}
	if w == nil {
		return nil
	}
	return w
}
