package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/covdata"
)

// Hybrid compares the application's two sources when Config.AppFunctions
// gives function sets (from `mbopt cover-app`, package covdata): the
// application graph's nodes then come from coverage, which is exact, and
// their weights (flat, attributed and reference impact) from the CPU
// profile.
//
// Coverage knows only its instrumented packages (Packages), so outside
// them the nodes are the profile's. Inside them a node is every function
// the coverage run executed, and also every function the profile sampled
// (a sample is proof that it ran; such functions are listed in
// ProfileOnly, normally none). A function coverage adds has no time and no
// sampled edge (static edges, Config.Edges, can connect it).
type Hybrid struct {
	// Packages are the instrumented packages of the function sets,
	// sorted.
	Packages []string
	// Functions counts the functions the sets hold (the union of the
	// sets).
	Functions int
	// CoverOnly lists the functions the coverage run executed that the
	// profile never sampled, sorted: what sampling missed.
	CoverOnly []string
	// ProfileOnly lists the profile's functions of instrumented packages
	// that the sets do not contain, sorted.
	ProfileOnly []string
	// ProfileProject and HybridProject count the project functions of the
	// profile's graph and of the hybrid graph.
	ProfileProject, HybridProject int
}

// hybridGraph reads the function sets files and returns app with the
// functions they hold added as nodes (see [Hybrid]).
func hybridGraph(app *callgraph.Graph, files []string, opts callgraph.Options) (*callgraph.Graph, *Hybrid, error) {
	h := &Hybrid{ProfileProject: app.ProjectLen()}
	var sets []*covdata.Set
	var fns []callgraph.Function
	for _, f := range files {
		set, err := covdata.ReadFile(f)
		if err != nil {
			return nil, nil, mbopt.Errorf("application function set %w (write one with 'mbopt cover-app'; see %s)", err, FieldAppFunctions)
		}
		if len(set.Funcs) == 0 {
			// Nothing ran where coverage looked: the run failed or
			// instrumented other packages. Timing the profile against it
			// would report functions as "ran" that the set says did not.
			return nil, nil, mbopt.Errorf("application function set %s holds no functions (%s instrumented): the coverage run executed none of the module's code; run the application again with 'mbopt cover-app', covering the module's packages (see %s)",
				f, textutil.Plural(len(set.Packages), "package"), FieldAppFunctions)
		}
		sets = append(sets, set)
		for _, p := range set.Packages {
			if !slices.Contains(h.Packages, p) {
				h.Packages = append(h.Packages, p)
			}
		}
		for _, fn := range set.Funcs {
			fns = append(fns, callgraph.Function{Name: fn.Name, File: fn.File, Line: fn.Line})
		}
	}
	slices.Sort(h.Packages)
	cg, err := callgraph.FromFunctions(fns, callgraph.Options{Modules: opts.Modules, Exclude: opts.Exclude})
	if err != nil {
		return nil, nil, err
	}
	h.Functions = cg.Len()
	contains := func(name, pkg string) (in, instrumented bool) {
		for _, s := range sets {
			if s.Instrumented(pkg) {
				instrumented = true
				if s.Contains(name) {
					return true, true
				}
			}
		}
		return false, instrumented
	}
	for _, n := range app.Nodes {
		if in, instr := contains(n.Name, n.Package); instr && !in {
			h.ProfileOnly = append(h.ProfileOnly, n.Name)
		}
	}
	var added []callgraph.Node
	for _, n := range cg.Nodes {
		if _, ok := app.Lookup(n.Name); !ok {
			h.CoverOnly = append(h.CoverOnly, n.Name)
			added = append(added, n)
		}
	}
	g := withNodes(app, added)
	h.HybridProject = g.ProjectLen()
	return g, h, nil
}

// withNodes returns app with the nodes added (names not in app, sorted),
// ids renumbered so the nodes stay sorted by name, edges kept.
func withNodes(app *callgraph.Graph, added []callgraph.Node) *callgraph.Graph {
	if len(added) == 0 {
		return app
	}
	nodes := make([]callgraph.Node, 0, app.Len()+len(added))
	nodes = append(append(nodes, app.Nodes...), added...)
	slices.SortFunc(nodes, func(a, b callgraph.Node) int { return strings.Compare(a.Name, b.Name) })
	newID := make([]int32, app.Len())
	j := 0
	for i := range nodes {
		if j < app.Len() && nodes[i].Name == app.Nodes[j].Name {
			newID[j] = int32(i)
			j++
		}
	}
	remap := func(lists [][]int32) [][]int32 {
		out := make([][]int32, len(nodes))
		for v, ws := range lists {
			l := make([]int32, len(ws))
			for k, w := range ws {
				l[k] = newID[w]
			}
			slices.Sort(l)
			out[newID[v]] = l
		}
		return out
	}
	return &callgraph.Graph{
		Nodes: nodes, Out: remap(app.Out), In: remap(app.In),
		Total: app.Total, Unattributed: app.Unattributed, OutsideProject: app.OutsideProject,
		UnnamedFrames: app.UnnamedFrames, Unit: app.Unit, Samples: app.Samples,
		SamplesTaken: app.SamplesTaken, Duration: app.Duration, FlatCallers: app.FlatCallers, FlatOwners: app.FlatOwners,
	}
}

// HybridNote says, with Config.AppFunctions, how the coverage run's
// functions and the profile's differ (see [Hybrid]). It is a [Note].
type HybridNote struct {
	// Hybrid is the comparison.
	Hybrid *Hybrid
}

// Note marks the note as information.
func (*HybridNote) Note() {}

// Error returns the note.
func (n *HybridNote) Error() string {
	h := n.Hybrid
	return fmt.Sprintf("application functions from coverage and times from the profile: %d project functions ran (the profile sampled %d); %d only in coverage%s; %d only in the profile%s",
		h.HybridProject, h.ProfileProject, len(h.CoverOnly), listSome(h.CoverOnly), len(h.ProfileOnly), listSome(h.ProfileOnly))
}

// listSome returns " (a, b, c and N more)" for names, "" for none.
func listSome(names []string) string {
	if len(names) == 0 {
		return ""
	}
	short := make([]string, len(names))
	for i, s := range names {
		short[i] = shortName(s)
	}
	return " (" + textutil.List(short, 3) + ")"
}
