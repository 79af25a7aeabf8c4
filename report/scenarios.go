package report

import (
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// Scenarios compares the application scenarios (the dissertation's
// Tables 6.3 and 6.4). Every list is in the order the scenarios were
// given.
type Scenarios struct {
	// Names are the scenario names, as given (unique).
	Names []string `json:"names"`
	// Weights are the scenario weights, 1 where none was given.
	Weights []float64 `json:"weights"`
	// Each is the whole suite's coverage of each scenario.
	Each []ScenarioCoverage `json:"coverage"`
	// Union is the suite's coverage of the union of all scenarios.
	Union Coverage `json:"union"`
	// Overall and Project are the pairwise overlaps over all nodes and
	// over project nodes.
	Overall Overlap `json:"overall_overlap"`
	// Project is the pairwise overlap over project nodes.
	Project Overlap `json:"project_overlap"`
	// SuiteProject[i][k] is scenario i's project-only coverage after the
	// first k+1 picks of the minimal suite (Figure 6.6, one line per
	// scenario).
	SuiteProject [][]float64 `json:"suite_project_curves"`
}

// ScenarioCoverage is the whole suite's coverage of one scenario.
type ScenarioCoverage struct {
	// Name is the scenario's name.
	Name string `json:"name"`
	// Nodes counts the functions of the scenario's graph.
	Nodes int `json:"nodes"`
	// ProjectNodes counts those in a project module.
	ProjectNodes int `json:"project_nodes"`
	// TotalSeconds is the scenario's CPU time in seconds.
	TotalSeconds float64 `json:"total_seconds"`
	// Project is the suite's project-only coverage of the scenario.
	Project Ratio `json:"project"`
	// Overall is the suite's coverage of all the scenario's nodes.
	Overall Ratio `json:"overall"`
}

// Overlap is a pairwise overlap matrix: Counts[i][j] nodes shared by
// scenarios i and j, Shares[i][j] = Counts[i][j] / Sizes[i] (the share of
// the row scenario's nodes).
type Overlap struct {
	// Sizes[i] counts scenario i's nodes.
	Sizes []int `json:"sizes"`
	// Counts[i][j] counts the nodes scenarios i and j share; symmetric,
	// with Counts[i][i] = Sizes[i].
	Counts [][]int `json:"counts"`
	// Shares[i][j] is Counts[i][j] / Sizes[i] in [0, 1], 0 when Sizes[i]
	// is 0; not symmetric.
	Shares [][]float64 `json:"shares"`
	// Unique[i] counts the nodes only scenario i calls.
	Unique []int `json:"unique"`
	// Union counts the nodes of any scenario.
	Union int `json:"union"`
	// Common counts the nodes every scenario calls.
	Common int `json:"common"`
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
