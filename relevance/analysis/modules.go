package analysis

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/mod/module"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/textutil"
)

// CheckModules checks the module path prefixes of [Config.Modules]: each
// must be an import path (golang.org/x/mod/module.CheckImportPath: not
// empty, no white space, no leading, trailing or double slash, no "." or
// ".." element), such as "example.com/m", "example.com/m/storage" or
// "main". The error is an [*mbopt.Error] about the first bad entry, which
// it quotes: Modules "example.com/ m": contains white space; ….
func CheckModules(mods []string) error {
	for _, m := range mods {
		reason := ""
		switch {
		case m == "":
			reason = "empty"
		case strings.IndexFunc(m, unicode.IsSpace) >= 0:
			reason = "contains white space"
		case strings.HasPrefix(m, "/"):
			reason = "starts with a slash (a module path is not a file path)"
		case strings.HasSuffix(m, "/"):
			reason = "ends with a slash"
		default:
			if err := module.CheckImportPath(m); err != nil {
				var ie *module.InvalidPathError
				if errors.As(err, &ie) && ie.Err != nil {
					reason = ie.Err.Error()
				} else {
					reason = err.Error()
				}
			}
		}
		if reason != "" {
			return mbopt.Errorf("%s %q: %s; a module prefix is an import path such as example.com/project", FieldModules, m, reason)
		}
	}
	return nil
}

// ErrNoProjectFunctions is matched (errors.Is) by a
// [*NoProjectFunctionsError].
var ErrNoProjectFunctions = errors.New("no application function belongs to the project")

// NoProjectFunctionsError reports that no function of the application
// profiles lies in the project's modules, so every project-only figure
// would be 0/0 and the suite empty. It carries the modules the profiles do
// contain, for the caller to suggest. It matches [ErrNoProjectFunctions];
// [Run] returns it inside an [*mbopt.Error], the input's fault.
type NoProjectFunctionsError struct {
	// Modules are the project module prefixes that matched nothing.
	Modules []string
	// From says where Modules came from: "Config.Modules", "the manifest"
	// or the path of the go.mod they were read from.
	From string
	// AppProfiles are the application profiles.
	AppProfiles []string
	// Candidates are the application's most used module-like path
	// prefixes (see [ModuleCandidates]), at most five.
	Candidates []ModuleCandidate
	// ManifestModules are the modules named by the benchmark profiles'
	// manifests, empty without one.
	ManifestModules []string
	// Samples is the number of times the profiler sampled the application
	// (callgraph.Graph.SamplesTaken): a profile of a workload that never
	// ran the project's code holds a few samples of the runtime alone,
	// which the message says.
	Samples int64
	// Total is the samples' value in Unit (callgraph.Graph.Total).
	Total float64
	// Unit is the profile's unit, "seconds" for a CPU profile.
	Unit string
}

// Error returns the message with the Modules field named as Go code
// names it.
func (e *NoProjectFunctionsError) Error() string { return e.Text(mbopt.Field.String) }

// Text returns the message with the Modules field named by name: the
// profiles, the modules that matched nothing and where they came from, the
// modules the profile does contain, and the Modules value to set.
func (e *NoProjectFunctionsError) Text(name func(mbopt.Field) string) string {
	var from string
	switch e.From {
	case "Config.Modules":
		from = name(FieldModules)
	case "the manifest":
		from = "the manifest's module"
	default:
		from = "the module of " + e.From
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: no function of the application profile belongs to %s (%s)",
		strings.Join(e.AppProfiles, ", "), strings.Join(e.Modules, ", "), from)
	if len(e.Candidates) == 0 {
		fmt.Fprintf(&b, "; it names no module-like package in its %s (%.3g %s): is it unsymbolized, of another program, or of a workload that did not run the project's code? Pass %s with the profiled program's module path, or profile a workload that runs it",
			textutil.Plural(int(e.Samples), "sample"), e.Total, e.Unit, name(FieldModules))
	} else {
		b.WriteString("; its functions are in ")
		for i, c := range e.Candidates {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s (%.0f%% of CPU time)", c.Path, 100*c.Share)
		}
		fmt.Fprintf(&b, ": pass %s %s, or the module of the code you benchmark", name(FieldModules), e.Candidates[0].Path)
	}
	if len(e.ManifestModules) > 0 && e.From != "the manifest" {
		fmt.Fprintf(&b, " (the manifest's module is %s)", strings.Join(e.ManifestModules, ", "))
	}
	return b.String()
}

// Unwrap makes the error match [ErrNoProjectFunctions].
func (e *NoProjectFunctionsError) Unwrap() error { return ErrNoProjectFunctions }

// ModuleCandidate is a module-like path prefix of an application's
// functions.
type ModuleCandidate struct {
	// Path is the prefix, such as "github.com/x/y" or "main".
	Path string
	// Seconds is the largest cumulative time of one of its functions: the
	// application time spent in the module and below, at least.
	Seconds float64
	// Share is Seconds over the application's total time.
	Share float64
}

// ModuleCandidates returns up to n module-like path prefixes of the
// functions of g, largest Seconds first, ties broken by path. A function's
// prefix is its package path cut to three elements under github.com,
// gitlab.com, bitbucket.org and golang.org/x, to two under any other
// domain (a first element with a dot), and "main" for package main;
// standard-library packages (no dot in the first element) have none.
// Cost: O(nodes).
func ModuleCandidates(g *callgraph.Graph, n int) []ModuleCandidate {
	best := map[string]float64{}
	for _, node := range g.Nodes {
		p := modulePrefix(node.Package)
		if p == "" {
			continue
		}
		if v, ok := best[p]; !ok || node.Cum > v {
			best[p] = node.Cum
		}
	}
	out := make([]ModuleCandidate, 0, len(best))
	for p, s := range best {
		c := ModuleCandidate{Path: p, Seconds: s}
		if g.Total > 0 {
			c.Share = s / g.Total
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b ModuleCandidate) int {
		if a.Seconds != b.Seconds {
			if a.Seconds > b.Seconds {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out[:min(n, len(out))]
}

// modulePrefix returns the module-like prefix of the package path pkg (see
// [ModuleCandidates]), "" for none.
func modulePrefix(pkg string) string {
	if pkg == "main" {
		return pkg
	}
	elems := strings.Split(pkg, "/")
	if !strings.Contains(elems[0], ".") {
		return ""
	}
	n := 2
	switch {
	case elems[0] == "github.com", elems[0] == "gitlab.com", elems[0] == "bitbucket.org",
		elems[0] == "golang.org" && len(elems) > 1 && elems[1] == "x":
		n = 3
	}
	return strings.Join(elems[:min(n, len(elems))], "/")
}
