// Package report renders an analysis for people and programs: a plain text
// report, and a JSON document whose schema ([Document]) is stable and
// documented in the README.
//
// Every list has a defined order, the same in every format: benchmarks by
// reference impact (largest first, then id), the minimal suite and the
// recommendations in pick order, the functions a pick adds by application
// flat time (largest first, then name), skipped files by path.
package report

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/coverage"
)

// Version is the JSON schema version; it changes only when a field changes
// meaning or disappears.
const Version = 1

// Document is the JSON form of an analysis.
type Document struct {
	Version int `json:"version"`
	// Modules are the project module prefixes.
	Modules []string `json:"modules"`
	// Criterion is the minimal suite's node criterion: "project" or "all".
	Criterion   string      `json:"criterion"`
	Application Application `json:"application"`
	Coverage    Coverage    `json:"coverage"`
	// Benchmarks holds every analysed benchmark, by impact then id.
	Benchmarks []Benchmark `json:"benchmarks"`
	// MinimalSuite holds Algorithm 2's picks in order.
	MinimalSuite []Pick `json:"minimal_suite"`
	// Recommendations holds Algorithm 3's picks in order.
	Recommendations []Recommendation `json:"recommendations"`
	// Skipped lists unusable benchmark profiles, by file.
	Skipped  []Skipped `json:"skipped"`
	Warnings []string  `json:"warnings"`
	// Selection describes a suite chosen beyond Algorithm 2 (objective,
	// budget, top, min-gain); absent for plain Algorithm 2.
	Selection *Selection `json:"selection,omitempty"`
	// Certificate bounds the minimal suite's size from below; absent
	// unless asked for.
	Certificate *Certificate `json:"certificate,omitempty"`
	// Scenarios compares several application scenarios; absent with one.
	Scenarios *Scenarios `json:"scenarios,omitempty"`
}

// Application describes the reference graph.
type Application struct {
	Profiles     []string `json:"profiles"`
	Nodes        int      `json:"nodes"`
	ProjectNodes int      `json:"project_nodes"`
	TotalSeconds float64  `json:"total_seconds"`
}

// Coverage is the suite's coverage of the application.
type Coverage struct {
	Project Ratio `json:"project"`
	Overall Ratio `json:"overall"`
}

// Ratio is covered/total.
type Ratio struct {
	Covered int     `json:"covered"`
	Total   int     `json:"total"`
	Ratio   float64 `json:"ratio"`
}

func ratioOf(r coverage.Ratio) Ratio { return Ratio{r.Covered, r.Total, r.Ratio} }

// Benchmark is one benchmark's coverage and reference impact.
type Benchmark struct {
	ID            string  `json:"id"`
	Profile       string  `json:"profile"`
	ProjectNodes  int     `json:"project_nodes"`
	OverallNodes  int     `json:"overall_nodes"`
	ImpactSeconds float64 `json:"impact_seconds"`
	ImpactShare   float64 `json:"impact_share"`
	GraphNodes    int     `json:"graph_nodes"`
	// Selected reports whether the benchmark is in the minimal suite.
	Selected bool `json:"selected"`
}

// Function is an application function a pick adds.
type Function struct {
	Function    string  `json:"function"`
	Package     string  `json:"package"`
	Project     bool    `json:"project"`
	FlatSeconds float64 `json:"flat_seconds"`
}

// Pick is one step of the minimal suite.
type Pick struct {
	ID string `json:"id"`
	// Added counts the criterion's nodes the pick newly covers.
	Added                  int     `json:"added"`
	AddedProject           int     `json:"added_project"`
	AddedOverall           int     `json:"added_overall"`
	ImpactSeconds          float64 `json:"impact_seconds"`
	ImpactShare            float64 `json:"impact_share"`
	AddedImpactSeconds     float64 `json:"added_impact_seconds"`
	CumulativeProjectRatio float64 `json:"cumulative_project_ratio"`
	CumulativeOverallRatio float64 `json:"cumulative_overall_ratio"`
	CumulativeImpact       float64 `json:"cumulative_impact_seconds"`
	// Functions are the application functions the pick newly covers.
	Functions []Function `json:"functions"`
}

// Recommendation is one recommended function.
type Recommendation struct {
	Function               string     `json:"function"`
	Package                string     `json:"package"`
	Distance               int        `json:"root_distance"`
	AddedProject           int        `json:"added_project"`
	AddedExternal          int        `json:"added_external"`
	ImpactSeconds          float64    `json:"impact_seconds"`
	ImpactShare            float64    `json:"impact_share"`
	CumulativeProjectRatio float64    `json:"cumulative_project_ratio"`
	CumulativeOverallRatio float64    `json:"cumulative_overall_ratio"`
	Functions              []Function `json:"functions"`
}

// Skipped is a benchmark profile left out of the analysis.
type Skipped struct {
	File string `json:"file"`
	// ID is the benchmark's id when a collection manifest names it.
	ID     string `json:"id,omitempty"`
	Reason string `json:"reason"`
}

// Build turns an analysis report into a Document.
func Build(rep *analysis.Report) *Document {
	cov := rep.Coverage
	app := cov.App
	d := &Document{
		Version:         Version,
		Modules:         nonNil(rep.Modules),
		Criterion:       rep.Suite.Nodes.String(),
		Application:     Application{Profiles: nonNil(rep.AppProfiles), Nodes: app.Len(), ProjectNodes: app.ProjectLen(), TotalSeconds: ns(app.Total)},
		Coverage:        Coverage{Project: ratioOf(cov.Project), Overall: ratioOf(cov.Overall)},
		Benchmarks:      []Benchmark{},
		MinimalSuite:    []Pick{},
		Recommendations: []Recommendation{},
		Skipped:         []Skipped{},
		Warnings:        []string{},
	}
	selected := map[string]bool{}
	for _, s := range rep.Suite.Steps {
		selected[s.ID] = true
	}
	for _, s := range cov.Sets {
		d.Benchmarks = append(d.Benchmarks, Benchmark{
			ID: s.ID, Profile: rep.Profiles[s.ID],
			ProjectNodes: s.ProjectNodes, OverallNodes: s.OverallNodes,
			ImpactSeconds: ns(s.ImpactSeconds), ImpactShare: s.ImpactShare,
			GraphNodes: s.GraphNodes, Selected: selected[s.ID],
		})
	}
	slices.SortStableFunc(d.Benchmarks, func(a, b Benchmark) int {
		return cmp.Or(cmp.Compare(b.ImpactSeconds, a.ImpactSeconds), strings.Compare(a.ID, b.ID))
	})
	functions := func(ids []int) []Function {
		fs := make([]Function, 0, len(ids))
		for _, id := range ids {
			n := app.Nodes[id]
			fs = append(fs, Function{Function: n.Name, Package: n.Package, Project: n.Project, FlatSeconds: ns(n.Flat)})
		}
		slices.SortStableFunc(fs, func(a, b Function) int {
			return cmp.Or(cmp.Compare(b.FlatSeconds, a.FlatSeconds), strings.Compare(a.Function, b.Function))
		})
		return fs
	}
	for _, s := range rep.Suite.Steps {
		d.MinimalSuite = append(d.MinimalSuite, Pick{
			ID: s.ID, Added: s.Added, AddedProject: s.AddedProject, AddedOverall: s.AddedOverall,
			ImpactSeconds: ns(s.ImpactSeconds), ImpactShare: s.ImpactShare, AddedImpactSeconds: ns(s.AddedImpactSeconds),
			CumulativeProjectRatio: s.CumulativeProject.Ratio, CumulativeOverallRatio: s.CumulativeOverall.Ratio,
			CumulativeImpact: ns(s.CumulativeImpactSeconds), Functions: functions(s.AddedNodes),
		})
	}
	if rep.Recommendations != nil {
		for _, r := range rep.Recommendations.Recommendations {
			d.Recommendations = append(d.Recommendations, Recommendation{
				Function: r.Function, Package: r.Package, Distance: r.Distance,
				AddedProject: r.AddedProject, AddedExternal: r.AddedExternal,
				ImpactSeconds: ns(r.ImpactSeconds), ImpactShare: r.ImpactShare,
				CumulativeProjectRatio: r.CumulativeProject.Ratio, CumulativeOverallRatio: r.CumulativeOverall.Ratio,
				Functions: functions(r.AddedNodes),
			})
		}
	}
	for _, w := range rep.Warnings {
		d.Warnings = append(d.Warnings, w.Error())
	}
	for _, s := range rep.Skipped {
		d.Skipped = append(d.Skipped, Skipped{File: s.File, ID: s.ID, Reason: s.Reason})
	}
	d.Selection = selectionOf(rep)
	d.Certificate = certificateOf(rep.Certificate)
	d.Scenarios = scenariosOf(rep)
	return d
}

// ns rounds seconds to whole nanoseconds, the resolution of CPU profiles,
// so sums print as 11.66 rather than 11.659999999999863.
func ns(seconds float64) float64 { return math.Round(seconds*1e9) / 1e9 }

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
