package analysis

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/bitset"

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
				return nil, mbopt.Errorf("%s[%d]: %w", FieldExclude, i, err)
			}
			out = append(out, p)
			continue
		}
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, mbopt.Errorf("%s[%d]: %q leaves the module; a relative pattern must stay inside it (%q names the module root)", FieldExclude, i, p, "./...")
		}
		for _, m := range mods {
			r := strings.TrimSuffix(m, "/")
			if rel != "." {
				r += "/" + rel
			}
			if _, err := callgraph.MatchPattern(r); err != nil {
				return nil, mbopt.Errorf("%s[%d]: %w", FieldExclude, i, err)
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
func (w *ExcludeUnmatchedWarning) Error() string { return w.Text(mbopt.Field.String) }

// Text returns the warning with the Exclude field named by name.
func (w *ExcludeUnmatchedWarning) Text(name func(mbopt.Field) string) string {
	s := fmt.Sprintf("%s %s matches no project function of the application", name(FieldExclude), w.Pattern)
	if len(w.Resolved) != 1 || w.Resolved[0] != w.Pattern {
		s += fmt.Sprintf(" (%s)", strings.Join(w.Resolved, ", "))
	}
	return s + "; check the pattern against the package paths in the profile"
}

// CmdTargetsNote says that, with callable targets, the project functions
// under a cmd/ directory of a module were no recommendation targets: Go
// keeps a module's commands there, and with them the code that drives a
// workload, which a microbenchmark should not target. They still count in
// coverage (Config.Exclude leaves them out of the project too), and
// --targets any (the paper's Algorithm 3) recommends them.
type CmdTargetsNote struct {
	// Packages are the packages left out as targets that have an uncovered
	// project function, sorted.
	Packages []string
	// Pattern is the Exclude pattern for the first package's cmd/
	// directory, relative to its module ("./cmd/...").
	Pattern string
}

// Note marks the note as information.
func (*CmdTargetsNote) Note() {}

// Error returns the note with the Exclude and Targets fields named as Go
// code names them.
func (n *CmdTargetsNote) Error() string { return n.Text(mbopt.Field.String) }

// Text returns the note with the fields named by name.
func (n *CmdTargetsNote) Text(name func(mbopt.Field) string) string {
	return fmt.Sprintf("the uncovered functions of %s under cmd/ (%s) are no recommendation targets: cmd/ holds commands and workload drivers, not library code; %s %s also leaves them out of the project coverage, and %s any recommends them",
		textutil.Plural(len(n.Packages), "package"), strings.Join(n.Packages, ", "), name(FieldExclude), n.Pattern, name(FieldTargets))
}

// cmdDir returns the directory, relative to the project module pkg lies in,
// of the cmd/ directory pkg lies under ("cmd", "tools/cmd"), and whether it
// lies under one.
func cmdDir(pkg string, modules []string) (string, bool) {
	for _, mod := range modules {
		rel, ok := strings.CutPrefix(pkg, strings.TrimSuffix(mod, "/")+"/")
		if !ok {
			continue
		}
		elems := strings.Split(rel, "/")
		if i := slices.Index(elems, "cmd"); i >= 0 {
			return strings.Join(elems[:i+1], "/"), true
		}
	}
	return "", false
}

// cmdTargets returns the recommendation hook that leaves out the packages
// under a cmd/ directory of modules, and the note naming those of g's
// packages with an uncovered project function (nil when there is none).
func cmdTargets(g *callgraph.Graph, covered bitset.Set, modules []string) (func(string) bool, error) {
	notTarget := func(pkg string) bool {
		_, ok := cmdDir(pkg, modules)
		return ok
	}
	var note *CmdTargetsNote
	for v, n := range g.Nodes {
		if !n.Project || covered.Has(v) {
			continue
		}
		dir, ok := cmdDir(n.Package, modules)
		if !ok {
			continue
		}
		if note == nil {
			note = &CmdTargetsNote{Pattern: "./" + dir + "/..."}
		}
		if !slices.Contains(note.Packages, n.Package) {
			note.Packages = append(note.Packages, n.Package)
		}
	}
	if note == nil {
		return notTarget, nil
	}
	slices.Sort(note.Packages)
	return notTarget, note
}
