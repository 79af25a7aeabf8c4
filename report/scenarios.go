package report

import (
	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/coverage"
)

// Scenarios compares the application scenarios (the dissertation's
// Tables 6.3 and 6.4). Every list is in the order the scenarios were
// given.
type Scenarios struct {
	Names   []string           `json:"names"`
	Weights []float64          `json:"weights"`
	Each    []ScenarioCoverage `json:"coverage"`
	// Union is the suite's coverage of the union of all scenarios.
	Union Coverage `json:"union"`
	// Overall and Project are the pairwise overlaps over all nodes and
	// over project nodes.
	Overall Overlap `json:"overall_overlap"`
	Project Overlap `json:"project_overlap"`
	// SuiteProject[i][k] is scenario i's project-only coverage after the
	// first k+1 picks of the minimal suite (Figure 6.6, one line per
	// scenario).
	SuiteProject [][]float64 `json:"suite_project_curves"`
}

// ScenarioCoverage is the whole suite's coverage of one scenario.
type ScenarioCoverage struct {
	Name         string  `json:"name"`
	Nodes        int     `json:"nodes"`
	ProjectNodes int     `json:"project_nodes"`
	TotalSeconds float64 `json:"total_seconds"`
	Project      Ratio   `json:"project"`
	Overall      Ratio   `json:"overall"`
}

// Overlap is a pairwise overlap matrix: Counts[i][j] nodes shared by
// scenarios i and j, Shares[i][j] = Counts[i][j] / Sizes[i] (the share of
// the row scenario's nodes).
type Overlap struct {
	Sizes  []int       `json:"sizes"`
	Counts [][]int     `json:"counts"`
	Shares [][]float64 `json:"shares"`
	Unique []int       `json:"unique"`
	Union  int         `json:"union"`
	Common int         `json:"common"`
}

func overlapOf(o coverage.Overlap) Overlap {
	return Overlap{Sizes: o.Sizes, Counts: o.Counts, Shares: o.Shares, Unique: o.Unique, Union: o.Union, Common: o.Common}
}

// scenariosOf describes rep's scenarios; nil with fewer than two.
func scenariosOf(rep *analysis.Report) *Scenarios {
	ss := rep.Scenarios
	if ss == nil {
		return nil
	}
	s := &Scenarios{
		Names: ss.Names, Weights: ss.Weights,
		Union:   Coverage{Project: ratioOf(ss.Union.Project), Overall: ratioOf(ss.Union.Overall)},
		Overall: overlapOf(ss.Overall), Project: overlapOf(ss.Project),
	}
	for i, e := range ss.Each {
		s.Each = append(s.Each, ScenarioCoverage{
			Name: ss.Names[i], Nodes: e.App.Len(), ProjectNodes: e.App.ProjectLen(), TotalSeconds: e.App.Total,
			Project: ratioOf(e.Project), Overall: ratioOf(e.Overall),
		})
	}
	picks := make([][]int, len(rep.Suite.Steps))
	for k, st := range rep.Suite.Steps {
		picks[k] = st.AddedNodes
	}
	s.SuiteProject = ss.ProjectCurves(picks)
	return s
}
