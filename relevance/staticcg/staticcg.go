package staticcg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	xcallgraph "golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/mbopt/mbopt/internal/enum"
)

// Algorithm chooses how [Build] resolves dynamic calls (interface
// methods and function values).
type Algorithm int

const (
	// VTA is variable type analysis (golang.org/x/tools/go/callgraph/vta)
	// over the CHA graph: a dynamic call goes only to the functions whose
	// values can flow to it. It is the default (see "Algorithm" in the
	// package documentation).
	VTA Algorithm = iota
	// CHA is class hierarchy analysis (go/callgraph/cha): an interface
	// call goes to every method of that name and signature, a function
	// value call to every function of its signature whose address is
	// taken. Sound, faster to build and much less precise.
	CHA
)

// String returns "vta" or "cha".
func (a Algorithm) String() string {
	return enum.Name("Algorithm", a, "vta", "cha")
}

// ParseAlgorithm parses "vta" or "cha".
func ParseAlgorithm(s string) (Algorithm, error) {
	return enum.Parse("invalid call graph algorithm", s, VTA, CHA)
}

// Options configures [Build]. The zero value analyses the packages of the
// module in the current directory with [VTA].
type Options struct {
	// Dir is the directory the patterns are resolved in, normally the
	// application's module root; "" means the current directory.
	Dir string
	// Patterns are the package patterns of the application ("go help
	// packages"); nil means "./...", every package of the module in Dir.
	// Their dependencies, the standard library included, are always
	// analysed as well.
	Patterns []string
	// Algorithm resolves dynamic calls; the zero value is [VTA].
	Algorithm Algorithm
	// Env is the environment of the go command that lists the packages
	// (GOOS, GOARCH, GOFLAGS select the build); nil means the current
	// process's.
	Env []string
	// BuildFlags are passed to the go command, such as "-tags=integration".
	BuildFlags []string
}

// Func is one function of a [Graph].
type Func struct {
	// Name is the function's name as profiles name it, normalised (see
	// [Name]): the node name of a callgraph.Graph.
	Name string
	// Transparent reports that the function is a wrapper the compiler
	// usually inlines or never emits (a promoted or pointer-receiver
	// method wrapper, a bound method value, a method-expression thunk):
	// it does no work of its own, so [Graph.Edges] passes through it when
	// the profile does not have it.
	Transparent bool
}

// Graph is a static call graph whose functions are named as in profiles.
// Several SSA functions may share one name (the instantiations of a
// generic function, or a generic function and its instances), and they
// are then one function with the union of their edges.
type Graph struct {
	// Funcs are sorted by Name, names unique; a function's id is its
	// index.
	Funcs []Func
	// Out[i] holds the ids of the functions Funcs[i] may call, sorted
	// ascending, without i itself.
	Out [][]int32
	// Algorithm is the algorithm the graph was built with.
	Algorithm Algorithm
	// Unnamed counts the SSA functions left out because they have no
	// profile name (method-expression thunks; see [Name]); the calls
	// through a thunk are kept, as through a transparent wrapper.
	Unnamed int
}

// ErrLoad marks a failure to load or type-check the application's
// packages: [Build]'s error wraps it, with the go command's or the type
// checker's first errors.
var ErrLoad = errors.New("loading the application's packages")

// Build loads the packages of opts.Patterns with their dependencies from
// source, builds their SSA form with generic functions instantiated, and
// returns their static call graph. Every package is type-checked from
// source, so it costs seconds (see "Cost" in the package documentation).
// A package that fails to load or type-check is an error wrapping
// [ErrLoad].
func Build(ctx context.Context, opts Options) (*Graph, error) {
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg := &packages.Config{
		Context:    ctx,
		Mode:       packages.LoadAllSyntax,
		Dir:        opts.Dir,
		Env:        opts.Env,
		BuildFlags: opts.BuildFlags,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("%w (%s in %s): %w", ErrLoad, strings.Join(patterns, " "), dirName(opts.Dir), err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%w: %s in %s matches no package", ErrLoad, strings.Join(patterns, " "), dirName(opts.Dir))
	}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) > 0 {
		more := ""
		if len(msgs) > 3 {
			more = fmt.Sprintf(" (and %d more)", len(msgs)-3)
			msgs = msgs[:3]
		}
		return nil, fmt.Errorf("%w in %s: %s%s; the static call graph needs packages that build (check 'go build %s')",
			ErrLoad, dirName(opts.Dir), strings.Join(msgs, "; "), more, strings.Join(patterns, " "))
	}
	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var cg *xcallgraph.Graph
	switch opts.Algorithm {
	case VTA:
		cg = vta.CallGraph(ssautil.AllFunctions(prog), cha.CallGraph(prog))
	case CHA:
		cg = cha.CallGraph(prog)
	default:
		return nil, fmt.Errorf("staticcg: unknown Algorithm %d", int(opts.Algorithm))
	}
	return fromSSA(cg, opts.Algorithm), nil
}

func dirName(dir string) string {
	if dir == "" {
		return "the current directory"
	}
	return dir
}

// fromSSA names the nodes of cg and merges those of one name. Unnamed
// functions become transparent functions of their own (named by their SSA
// name with a leading "$", which no profile name has) so the calls through
// them are kept.
func fromSSA(cg *xcallgraph.Graph, alg Algorithm) *Graph {
	type info struct {
		name        string
		transparent bool
	}
	infos := make(map[*ssa.Function]info, len(cg.Nodes))
	byName := map[string]bool{} // name → transparent (all its functions are)
	g := &Graph{Algorithm: alg}
	for fn := range cg.Nodes {
		if fn == nil {
			continue // the root node of a CHA graph
		}
		name, ok := Name(fn)
		transparent := isTransparent(fn)
		if !ok {
			g.Unnamed++
			name, transparent = "$"+fn.String(), true
		}
		infos[fn] = info{name, transparent}
		if t, seen := byName[name]; seen {
			byName[name] = t && transparent
		} else {
			byName[name] = transparent
		}
	}
	g.Funcs = make([]Func, 0, len(byName))
	for name, t := range byName {
		g.Funcs = append(g.Funcs, Func{Name: name, Transparent: t})
	}
	slices.SortFunc(g.Funcs, func(a, b Func) int { return strings.Compare(a.Name, b.Name) })
	id := make(map[string]int32, len(g.Funcs))
	for i, f := range g.Funcs {
		id[f.Name] = int32(i)
	}
	g.Out = make([][]int32, len(g.Funcs))
	for fn, n := range cg.Nodes {
		if fn == nil {
			continue
		}
		from := id[infos[fn].name]
		for _, e := range n.Out {
			if e.Callee.Func == nil {
				continue
			}
			to := id[infos[e.Callee.Func].name]
			if to != from {
				g.Out[from] = append(g.Out[from], to)
			}
		}
	}
	for i, out := range g.Out {
		slices.Sort(out)
		g.Out[i] = slices.Compact(out)
	}
	return g
}

// isTransparent reports whether fn is a wrapper that does no work of its
// own: a method wrapper (promoted or pointer receiver), a bound method
// value or a method-expression thunk.
func isTransparent(fn *ssa.Function) bool {
	s := fn.Synthetic
	return strings.HasPrefix(s, "wrapper for") || strings.HasPrefix(s, "bound method wrapper") || strings.HasPrefix(s, "thunk for")
}

// Lookup returns the id of the function named name and whether there is
// one. Cost O(log n).
func (g *Graph) Lookup(name string) (int, bool) {
	return slices.BinarySearchFunc(g.Funcs, name, func(f Func, name string) int { return strings.Compare(f.Name, name) })
}
