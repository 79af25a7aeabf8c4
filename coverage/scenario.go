package coverage

import (
	"fmt"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/bitset"
)

// Scenario is one application workload (the PeerJ study ran three per
// database: Medical Monitoring, Smart Factory, Wind Parks).
type Scenario struct {
	// Name identifies the scenario; names must be unique.
	Name string
	// Graph is the scenario's application graph.
	Graph *callgraph.Graph
	// Weight is the scenario's weight in a weighted union suite; 0 means 1.
	Weight float64
}

// Overlap is the pairwise overlap of the scenarios' graphs over one kind of
// node (project-only or overall), as in the dissertation's Table 6.4.
type Overlap struct {
	// Sizes[i] is the number of nodes of scenario i.
	Sizes []int
	// Counts[i][j] is the number of nodes scenarios i and j share
	// (Counts[i][i] = Sizes[i]); the matrix is symmetric.
	Counts [][]int
	// Shares[i][j] is Counts[i][j] / Sizes[i]: the share of scenario
	// i's nodes that scenario j also calls. It is not symmetric: read a
	// row as "of this scenario's functions, how many does the column
	// scenario call too". 0 when Sizes[i] is 0.
	Shares [][]float64
	// Union counts the nodes of any scenario, Common those of every
	// scenario.
	Union, Common int
	// Unique[i] counts the nodes only scenario i calls.
	Unique []int
}

// ScenarioSet compares several application scenarios with one benchmark
// suite.
type ScenarioSet struct {
	// Names are the scenarios' names in input order; every per-scenario
	// slice uses that order.
	Names []string
	// Weights are the scenarios' weights, 0 replaced by 1.
	Weights []float64
	// Each[i] is scenario i's coverage by the benchmarks.
	Each []*Result
	// Union is the coverage of the union graph, whose nodes are every
	// scenario's nodes, matched by function name.
	Union *Result
	// Members[i] holds the union node ids that scenario i calls.
	Members []bitset.Set
	// Project and Overall are the pairwise overlaps over project nodes
	// and over all nodes.
	Project, Overall Overlap
}

// Scenarios computes every scenario's coverage by benches, the coverage
// of the union graph union (the merge of all scenario profiles, as
// callgraph.Merge builds it), and the pairwise overlaps. It panics if two
// scenarios share a name or a scenario node is missing from union
// (programmer errors: union must be built from the same profiles).
// Cost: one [Compute] per scenario plus one for the union, and
// O(S² × V/64) for the overlaps.
func Scenarios(union *callgraph.Graph, scenarios []Scenario, benches []Benchmark) *ScenarioSet {
	n := union.Len()
	ss := &ScenarioSet{Union: Compute(union, benches)}
	seen := map[string]bool{}
	for _, sc := range scenarios {
		if seen[sc.Name] {
			panic("coverage: duplicate scenario name " + sc.Name)
		}
		seen[sc.Name] = true
		w := sc.Weight
		if w == 0 {
			w = 1
		}
		ss.Names = append(ss.Names, sc.Name)
		ss.Weights = append(ss.Weights, w)
		ss.Each = append(ss.Each, Compute(sc.Graph, benches))
		m := bitset.New(n)
		for _, node := range sc.Graph.Nodes {
			id, ok := union.Lookup(node.Name)
			if !ok {
				panic(fmt.Sprintf("coverage: node %s of scenario %s is not in the union graph", node.Name, sc.Name))
			}
			m.Add(id)
		}
		ss.Members = append(ss.Members, m)
	}
	ss.Project = overlap(ss.Members, ss.Union.ProjectMask)
	ss.Overall = overlap(ss.Members, ss.Union.AllMask)
	return ss
}

func overlap(members []bitset.Set, mask bitset.Set) Overlap {
	k := len(members)
	o := Overlap{Sizes: make([]int, k), Counts: make([][]int, k), Shares: make([][]float64, k), Unique: make([]int, k)}
	union := bitset.New(len(mask) * 64)
	common := mask.Clone()
	for i, m := range members {
		o.Sizes[i] = m.IntersectionLen(mask)
		union.Or(m)
		common.And(m)
	}
	union.And(mask)
	o.Union, o.Common = union.Len(), common.Len()
	for i, mi := range members {
		o.Counts[i] = make([]int, k)
		o.Shares[i] = make([]float64, k)
		others := bitset.New(len(mask) * 64)
		for j, mj := range members {
			both := mi.Clone()
			both.And(mj)
			o.Counts[i][j] = both.IntersectionLen(mask)
			if o.Sizes[i] > 0 {
				o.Shares[i][j] = float64(o.Counts[i][j]) / float64(o.Sizes[i])
			}
			if j != i {
				others.Or(mj)
			}
		}
		only := mi.Clone()
		only.AndNot(others)
		o.Unique[i] = only.IntersectionLen(mask)
	}
	return o
}

// NodeWeights returns, for every node of the union graph, its weight in a
// weighted union suite (for optimize.Plan.Weights): with impact false, the
// summed weights of the scenarios that call it; with impact true, the
// weighted sum of its time under kind in each scenario, Σ weight ×
// kind.NodeSeconds (in seconds). kind matters only with impact.
func (ss *ScenarioSet) NodeWeights(impact bool, kind ImpactKind) []float64 {
	w := make([]float64, ss.Union.App.Len())
	for i, m := range ss.Members {
		g := ss.Each[i].App
		m.Each(func(id int) {
			if !impact {
				w[id] += ss.Weights[i]
				return
			}
			sid, _ := g.Lookup(ss.Union.App.Nodes[id].Name)
			w[id] += ss.Weights[i] * kind.NodeSeconds(&g.Nodes[sid])
		})
	}
	return w
}

// ProjectCurves returns each scenario's project-only coverage along a
// sequence of picks (the minimal suite's steps, the dissertation's
// Figure 6.6 with one line per scenario): curves[i][k] is the share of
// scenario i's project nodes covered by the nodes of picks[0..k], where
// picks[k] holds the union-graph node ids pick k adds. A scenario without
// project nodes has a curve of zeros. Every curve has len(picks) points
// (an empty, non-nil slice for no picks), and the scenarios are in
// [ScenarioSet.Names] order. Cost: O(S × (V/64 + P)) for S scenarios and P
// added ids in all.
func (ss *ScenarioSet) ProjectCurves(picks [][]int) [][]float64 {
	project := ss.Union.ProjectMask
	var curves [][]float64
	for _, m := range ss.Members {
		size := m.IntersectionLen(project)
		covered := bitset.New(ss.Union.App.Len())
		n := 0 // project nodes of the scenario covered so far
		curve := make([]float64, 0, len(picks))
		for _, added := range picks {
			for _, id := range added {
				if !covered.Has(id) && m.Has(id) && project.Has(id) {
					n++
				}
				covered.Add(id)
			}
			r := 0.0
			if size > 0 {
				r = float64(n) / float64(size)
			}
			curve = append(curve, r)
		}
		curves = append(curves, curve)
	}
	return curves
}
