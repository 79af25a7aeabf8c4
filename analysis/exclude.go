package analysis

import (
	"fmt"
	"path"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
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
