package staticcg

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/enum"
)

// Edges chooses the edges of the application graph that the
// recommendation walks (see "Edges" in the package documentation).
type Edges int

const (
	// Sampled keeps the edges seen in the profile's stacks: the paper's
	// graph, and the zero value.
	Sampled Edges = iota
	// Static replaces them with the static call graph's edges between
	// the application's functions.
	Static
	// Both uses the union of the sampled and the static edges.
	Both
)

// String returns "sampled", "static" or "both".
func (e Edges) String() string {
	return enum.Name("Edges", e, "sampled", "static", "both")
}

// ParseEdges parses "sampled", "static" or "both".
func ParseEdges(s string) (Edges, error) {
	return enum.Parse("invalid edges", s, Sampled, Static, Both)
}

// Stats describes what [Apply] did.
type Stats struct {
	// Edges is the mode applied.
	Edges Edges
	// Algorithm is the static graph's algorithm.
	Algorithm Algorithm
	// Sampled counts the application graph's own edges, Static the
	// static edges between its functions, Common those in both, and
	// Result the edges of the returned graph.
	Sampled, Static, Common, Result int
	// Matched counts the application's functions that the static graph
	// has (see [Graph.Resolve]).
	Matched int
	// Unmatched lists the names of the application's project functions
	// the static graph does not have, sorted. The compiler's go and defer
	// wrappers (F.gowrapN, F.deferwrapN), which SSA does not have, are not
	// listed.
	Unmatched []string
}

// Apply returns app with the edges mode chooses: its own (Sampled), the
// static graph's edges between its functions (Static), or both. A static
// edge u→v joins two functions of app that sg connects directly or through
// transparent functions that app does not have (see [Func.Transparent]);
// a path through any other function that app does not have is no edge: the
// application never ran that function, so it never made that call.
//
// The returned graph shares app's Nodes (which must not be modified) and
// copies its totals; its Out and In are new, sorted, without self-edges.
// With Sampled it is app itself. Cost O(V + E) over the static graph for
// each application function it has, in practice far less: a search stops
// at the first application function on each path.
func Apply(app *callgraph.Graph, sg *Graph, mode Edges) (*callgraph.Graph, Stats) {
	st := Stats{Edges: mode, Algorithm: sg.Algorithm}
	for _, out := range app.Out {
		st.Sampled += len(out)
	}
	// appOf maps a static function to its application nodes (usually one;
	// the inlined copies of a closure share its static function).
	appOf := make([][]int32, len(sg.Funcs))
	staticOf := make([]int32, app.Len())
	for v := range app.Nodes {
		staticOf[v] = -1
		n := &app.Nodes[v]
		if s, ok := sg.Resolve(n.Name); ok {
			appOf[s] = append(appOf[s], int32(v))
			staticOf[v] = int32(s)
			st.Matched++
		} else if n.Project && !goDeferWrapper(n.Name) {
			st.Unmatched = append(st.Unmatched, n.Name)
		}
	}
	static := make([][]int32, app.Len())
	seen := make([]int32, len(sg.Funcs)) // seen[s] == v+1: visited from v
	var stack []int32
	for v, s := range staticOf {
		if s < 0 {
			continue
		}
		mark := int32(v) + 1
		seen[s] = mark
		stack = append(stack[:0], sg.Out[s]...)
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[t] == mark {
				continue
			}
			seen[t] = mark
			switch ws := appOf[t]; {
			case len(ws) > 0:
				for _, w := range ws {
					if w != int32(v) {
						static[v] = append(static[v], w)
					}
				}
			case sg.Funcs[t].Transparent:
				stack = append(stack, sg.Out[t]...)
			}
		}
		slices.Sort(static[v])
		static[v] = slices.Compact(static[v])
		st.Static += len(static[v])
		for _, w := range static[v] {
			if v < len(app.Out) {
				if _, ok := slices.BinarySearch(app.Out[v], w); ok {
					st.Common++
				}
			}
		}
	}
	if mode == Sampled {
		st.Result = st.Sampled
		return app, st
	}
	out := static
	if mode == Both {
		out = make([][]int32, app.Len())
		for v := range out {
			var own []int32
			if v < len(app.Out) {
				own = app.Out[v]
			}
			out[v] = slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(own), static[v]...))))
		}
	}
	in := make([][]int32, app.Len())
	for v, ws := range out {
		st.Result += len(ws)
		for _, w := range ws {
			in[w] = append(in[w], int32(v)) // v increases: sorted
		}
	}
	g := &callgraph.Graph{
		Nodes:          app.Nodes,
		Out:            out,
		In:             in,
		Total:          app.Total,
		Unattributed:   app.Unattributed,
		OutsideProject: app.OutsideProject,
		UnnamedFrames:  app.UnnamedFrames,
		Unit:           app.Unit,
		Samples:        app.Samples,
		SamplesTaken:   app.SamplesTaken,
		Duration:       app.Duration,
	}
	return g, st
}

// goDeferWrapper reports whether name is a compiler-generated go or defer
// statement wrapper (F.gowrapN, F.deferwrapN), which SSA does not have.
func goDeferWrapper(name string) bool {
	for i := len(name) - 1; i >= 0; i-- {
		c := name[i]
		if c >= '0' && c <= '9' {
			continue
		}
		rest := name[:i+1]
		return i < len(name)-1 && (strings.HasSuffix(rest, ".gowrap") || strings.HasSuffix(rest, ".deferwrap"))
	}
	return false
}

// Resolve returns the id of the static function of the application
// function named name (a normalised profile name), and whether there is
// one: the function of that name, or for a closure copied by inlining the
// closure it is a copy of.
//
// When the compiler inlines a function G that has a closure into F, the
// copy of the closure is named F.G.funcN (seen for G in F's package; a
// copy from another package is not resolved), and N counts the closures of F, not of G
// ("runtime.(*sweepLocked).sweep.(*mheap).freeSpan.func2" is the only
// closure of runtime.(*mheap).freeSpan, inlined into sweep, which has a
// closure of its own). So such a name resolves to G's closure when G has
// exactly one (G.func1 and no G.func2), and otherwise to none.
func (sg *Graph) Resolve(name string) (int, bool) {
	if s, ok := sg.Lookup(name); ok {
		return s, true
	}
	return inlinedClosure(sg, name, callgraph.PackageOf(name))
}

// inlinedClosure finds the static function of a closure copied by
// inlining (see [Graph.Resolve]).
func inlinedClosure(sg *Graph, name, pkg string) (int, bool) {
	j := strings.LastIndex(name, ".func")
	if pkg == "" || j < 0 {
		return 0, false
	}
	if _, err := strconv.Atoi(name[j+len(".func"):]); err != nil {
		return 0, false // not a closure of a named function
	}
	for i := len(pkg) + 1; i < j; i++ {
		if name[i] != '.' {
			continue
		}
		if _, ok := sg.Lookup(name[:i]); !ok {
			continue
		}
		inner := pkg + "." + name[i+1:j]
		s, ok := sg.Lookup(inner + ".func1")
		if _, two := sg.Lookup(inner + ".func2"); ok && !two {
			return s, true
		}
	}
	return 0, false
}
