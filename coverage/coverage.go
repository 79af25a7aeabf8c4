package coverage

import (
	"slices"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/bitset"
)

// Benchmark is one microbenchmark's graph, or footprint, under its id.
// Exactly one of Graph and Footprint is set.
type Benchmark struct {
	// ID names the benchmark, e.g. "storage__BenchmarkAddRows" or
	// "example.com/m/storage.BenchmarkAddRows/n=10". IDs must be unique.
	ID string
	// Graph is the benchmark's call graph, as callgraph.Load builds it
	// from its profile.
	Graph *callgraph.Graph
	// Footprint is the benchmark's functions as callgraph.Table.Load
	// reads them from its profile, without building its graph: coverage
	// compares only a benchmark graph's nodes, so a footprint gives the
	// same results for a fraction of the memory. Footprints over a
	// table made from the application graph map to its nodes directly;
	// others are matched by name.
	Footprint *callgraph.Footprint
}

// len returns the number of functions of b's graph or footprint.
func (b *Benchmark) len() int {
	if b.Graph != nil {
		return b.Graph.Len()
	}
	return b.Footprint.Len()
}

// tableIDs maps the nodes of one graph to the ids of the callgraph.Tables
// of footprints, by name, each table's once.
type tableIDs struct {
	app *callgraph.Graph
	ids map[*callgraph.Table][]int32
}

// of returns, for each node of app, its id in t, -1 for none.
func (m *tableIDs) of(t *callgraph.Table) []int32 {
	if ids, ok := m.ids[t]; ok {
		return ids
	}
	ids := make([]int32, m.app.Len())
	for i, n := range m.app.Nodes {
		ids[i] = -1
		if id, ok := t.Lookup(n.Name); ok {
			ids[i] = int32(id)
		}
	}
	if m.ids == nil {
		m.ids = map[*callgraph.Table][]int32{}
	}
	m.ids[t] = ids
	return ids
}

// nodes puts the application nodes of b's graph or footprint in set.
func (b *Benchmark) nodes(app *callgraph.Graph, set bitset.Set, m *tableIDs) {
	switch {
	case b.Graph != nil:
		for _, bn := range b.Graph.Nodes {
			if id, ok := app.Lookup(bn.Name); ok {
				set.Add(id)
			}
		}
	case b.Footprint == nil:
		panic("coverage: benchmark " + b.ID + " has neither a graph nor a footprint")
	case b.Footprint.Table.Graph() == app:
		copy(set, b.Footprint.Nodes)
	default:
		for i, id := range m.of(b.Footprint.Table) {
			if id >= 0 && b.Footprint.Has(int(id)) {
				set.Add(i)
			}
		}
	}
}

// Ratio is a coverage figure.
type Ratio struct {
	// Covered counts the covered nodes, at most Total.
	Covered int
	// Total counts the nodes that can be covered.
	Total int
	// Ratio is Covered/Total, 0 when Total is 0.
	Ratio float64
}

func ratio(covered, total int) Ratio {
	r := Ratio{Covered: covered, Total: total}
	if total > 0 {
		r.Ratio = float64(covered) / float64(total)
	}
	return r
}

// Set is one benchmark's coverage of the application.
type Set struct {
	// ID is the benchmark's id.
	ID string
	// Nodes is the coverage set: application node ids also in the
	// benchmark's graph.
	Nodes bitset.Set
	// ProjectNodes and OverallNodes count the project and all nodes of
	// the coverage set.
	ProjectNodes, OverallNodes int
	// ImpactSeconds is the reference impact of the TCC paper: the
	// application's flat time summed over Nodes (in the application
	// graph's unit); see [FlatImpact].
	ImpactSeconds float64
	// ImpactShare is ImpactSeconds over the application's total time.
	ImpactShare float64
	// AttributedImpactSeconds is the attributed impact: the application's
	// attributed time summed over the project nodes of Nodes; see
	// [AttributedImpact].
	AttributedImpactSeconds float64
	// AttributedImpactShare is AttributedImpactSeconds over the
	// application's total time.
	AttributedImpactShare float64
	// GraphNodes is the size of the benchmark's own graph.
	GraphNodes int
}

// Result is the coverage of an application by a benchmark suite.
type Result struct {
	// App is the application graph every set refers to.
	App *callgraph.Graph
	// Sets holds one entry per benchmark, sorted by ID.
	Sets []Set
	// Covered is the union of all coverage sets.
	Covered bitset.Set
	// ProjectMask holds the application's project nodes; AllMask all
	// nodes.
	ProjectMask, AllMask bitset.Set
	// Project is the project-only coverage, Overall the overall coverage.
	Project, Overall Ratio
}

// Compute returns the coverage of app by benches. Benchmarks are matched to
// application nodes by normalised function name. Sets are returned sorted by
// ID whatever the input order. It panics if two benchmarks share an ID or
// one has neither a graph nor a footprint. The tables of footprints must
// not change while it runs.
// Cost: O(total benchmark nodes) map lookups plus O(B × V/64) words; a
// footprint over a table of app costs O(V/64) words, one over another
// table O(V) bit tests after O(V) lookups per table.
func Compute(app *callgraph.Graph, benches []Benchmark) *Result {
	n := app.Len()
	r := newResult(app)
	sorted := slices.Clone(benches)
	slices.SortFunc(sorted, func(a, b Benchmark) int { return strings.Compare(a.ID, b.ID) })
	r.Sets = make([]Set, len(sorted))
	m := &tableIDs{app: app}
	for i, b := range sorted {
		s := Set{ID: b.ID, Nodes: bitset.New(n)}
		b.nodes(app, s.Nodes, m)
		s.GraphNodes = b.len()
		r.Sets[i] = s
	}
	r.finish()
	return r
}

// Relation returns the Result of a relation between the benchmarks ids and
// app's nodes other than "runs": nodes[i] lists the application node ids
// related to benchmark ids[i], such as the functions whose slowdown it
// would catch (package relevance/sensitivity). Sets are sorted by ID, each
// one's GraphNodes is its size, and the counts, impacts and ratios are
// computed as [Compute] computes them over coverage sets. It panics if two
// ids are equal, the lengths differ or a node id is out of range.
func Relation(app *callgraph.Graph, ids []string, nodes [][]int) *Result {
	if len(ids) != len(nodes) {
		panic("coverage: Relation needs one node list per id")
	}
	r := newResult(app)
	r.Sets = make([]Set, len(ids))
	for i, id := range ids {
		s := Set{ID: id, Nodes: bitset.New(app.Len())}
		for _, v := range nodes[i] {
			s.Nodes.Add(v)
		}
		s.GraphNodes = len(nodes[i])
		r.Sets[i] = s
	}
	slices.SortFunc(r.Sets, func(a, b Set) int { return strings.Compare(a.ID, b.ID) })
	r.finish()
	return r
}

// newResult returns the Result of app without sets: its masks.
func newResult(app *callgraph.Graph) *Result {
	n := app.Len()
	r := &Result{App: app, Covered: bitset.New(n), ProjectMask: bitset.New(n), AllMask: bitset.New(n)}
	for i, node := range app.Nodes {
		r.AllMask.Add(i)
		if node.Project {
			r.ProjectMask.Add(i)
		}
	}
	return r
}

// finish checks that r's sets, sorted by ID, have unique ids (it panics
// on a duplicate), and computes their counts and impacts and r's union
// and ratios.
func (r *Result) finish() {
	for i := range r.Sets {
		if i > 0 && r.Sets[i].ID == r.Sets[i-1].ID {
			panic("coverage: duplicate benchmark id " + r.Sets[i].ID)
		}
		r.fill(&r.Sets[i])
		r.Covered.Or(r.Sets[i].Nodes)
	}
	r.Project = ratio(r.Covered.IntersectionLen(r.ProjectMask), r.ProjectMask.Len())
	r.Overall = ratio(r.Covered.Len(), r.App.Len())
}

// fill computes a set's counts and impact from its Nodes.
func (r *Result) fill(s *Set) {
	s.OverallNodes = s.Nodes.Len()
	s.ProjectNodes = s.Nodes.IntersectionLen(r.ProjectMask)
	s.ImpactSeconds = r.Impact(s.Nodes)
	s.ImpactShare = r.Share(s.ImpactSeconds)
	s.AttributedImpactSeconds = r.ImpactOf(AttributedImpact, s.Nodes)
	s.AttributedImpactShare = r.Share(s.AttributedImpactSeconds)
}

// Impact returns the application's flat time summed over the nodes of set:
// the paper's reference impact, ImpactOf(FlatImpact, set).
func (r *Result) Impact(set bitset.Set) float64 {
	return r.ImpactOf(FlatImpact, set)
}

// ImpactOf returns the impact of kind of the nodes of set: the sum of
// [ImpactKind.NodeSeconds] over them, added in increasing id order so the
// float result is reproducible.
func (r *Result) ImpactOf(kind ImpactKind, set bitset.Set) float64 {
	var sum float64
	set.Each(func(i int) { sum += kind.NodeSeconds(&r.App.Nodes[i]) })
	return sum
}

// Share returns seconds as a share of the application's total time (0 for
// an empty application).
func (r *Result) Share(seconds float64) float64 {
	if r.App.Total == 0 {
		return 0
	}
	return seconds / r.App.Total
}

// Ratios returns the project-only and overall coverage of the nodes in set.
func (r *Result) Ratios(set bitset.Set) (project, overall Ratio) {
	return ratio(set.IntersectionLen(r.ProjectMask), r.ProjectMask.Len()), ratio(set.Len(), r.App.Len())
}

// Index returns the position in Sets of the benchmark with the given id.
func (r *Result) Index(id string) (int, bool) {
	return slices.BinarySearchFunc(r.Sets, id, func(s Set, id string) int { return strings.Compare(s.ID, id) })
}
