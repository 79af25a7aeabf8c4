package report

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// This file builds a Document from an analysis report: its benchmarks,
// picks and recommendations with the functions each adds.

func ratioOf(r coverage.Ratio) Ratio { return Ratio{r.Covered, r.Total, r.Ratio} }

// Build turns an analysis report into a Document.
func Build(rep *analysis.Report) *Document {
	cov := rep.Coverage
	app := cov.App
	d := &Document{
		Version:   Version,
		Modules:   nonNil(rep.Modules),
		Criterion: rep.Suite.Nodes.String(),
		Impact:    rep.Impact.String(),
		Application: Application{
			Profiles: nonNil(rep.AppProfiles), Nodes: app.Len(), ProjectNodes: app.ProjectLen(), Unit: app.WeightUnit(), TotalSeconds: ns(app.Total),
			OutsideProjectSeconds: ns(app.OutsideProject), OutsideProjectShare: cov.Share(app.OutsideProject),
		},
		Coverage:        Coverage{Project: ratioOf(cov.Project), Overall: ratioOf(cov.Overall)},
		Scope:           string(rep.Scope),
		Source:          string(rep.Source),
		MDEHistory:      rep.MDEHistory,
		Benchmarks:      benchmarksOf(rep),
		MinimalSuite:    picksOf(rep),
		Recommendations: recommendationsOf(rep),
		ThinBenchmarks:  []ThinBenchmark{},
		Skipped:         []Skipped{},
		Warnings:        []string{},
	}
	if rep.Recommendations != nil {
		d.NegligibleLast = rep.Recommendations.NegligibleLast
		d.RecommendationShortfall = shortfallOf(rep)
	}
	if rep.Targets == recommend.Callable {
		d.RecommendationTargets = rep.Targets.String()
	}
	for _, t := range rep.Thin {
		tb := ThinBenchmark{ID: t.ID, Profile: t.File, Samples: t.Samples, WallSeconds: ns(t.Seconds),
			BenchTime: t.BenchTime, LongerBenchTime: t.Longer, Hidden: []string{}}
		for _, v := range t.Hidden {
			tb.Hidden = append(tb.Hidden, app.Nodes[v].Name)
		}
		d.ThinBenchmarks = append(d.ThinBenchmarks, tb)
	}
	for _, w := range rep.Warnings {
		// Notes are information (where costs came from), which the
		// Document carries as data (SuiteCost.Source).
		if !analysis.IsNote(w) {
			d.Warnings = append(d.Warnings, w.Error())
		}
	}
	for _, s := range rep.Skipped {
		d.Skipped = append(d.Skipped, Skipped{File: s.File, ID: s.ID, Reason: s.Reason})
	}
	d.Selection = selectionOf(rep)
	d.Certificate = certificateOf(rep.Certificate, rep.Caught != nil)
	d.Scenarios = scenariosOf(rep)
	addCosts(d, rep)
	d.Sensitivity = rep.Sensitivity
	return d
}

// benchmarksOf returns every benchmark of rep by impact (the impact rep
// ranks by), largest first, then by id.
func benchmarksOf(rep *analysis.Report) []Benchmark {
	benchmarks := []Benchmark{}
	selected := map[string]bool{}
	for _, s := range rep.Suite.Steps {
		selected[s.ID] = true
	}
	for _, s := range rep.Coverage.Sets {
		benchmarks = append(benchmarks, Benchmark{
			ID: s.ID, Profile: rep.Profiles[s.ID],
			ProjectNodes: s.ProjectNodes, OverallNodes: s.OverallNodes,
			ImpactSeconds: ns(s.ImpactSeconds), ImpactShare: s.ImpactShare,
			AttributedImpactSeconds: ns(s.AttributedImpactSeconds), AttributedImpactShare: s.AttributedImpactShare,
			GraphNodes: s.GraphNodes, Selected: selected[s.ID],
		})
	}
	slices.SortStableFunc(benchmarks, func(a, b Benchmark) int {
		if rep.Impact == coverage.AttributedImpact {
			return cmp.Or(cmp.Compare(b.AttributedImpactSeconds, a.AttributedImpactSeconds), strings.Compare(a.ID, b.ID))
		}
		return cmp.Or(cmp.Compare(b.ImpactSeconds, a.ImpactSeconds), strings.Compare(a.ID, b.ID))
	})
	return benchmarks
}

// functionsOf returns the functions of app's nodes ids, by flat time,
// largest first, then by name.
func functionsOf(app *callgraph.Graph, ids []int) []Function {
	fs := make([]Function, 0, len(ids))
	for _, id := range ids {
		n := app.Nodes[id]
		fs = append(fs, Function{
			Function: n.Name, Package: n.Package, Project: n.Project, FlatSeconds: ns(n.Flat),
			AttributedSeconds: ns(coverage.AttributedImpact.NodeSeconds(&n)),
		})
	}
	slices.SortStableFunc(fs, func(a, b Function) int {
		return cmp.Or(cmp.Compare(b.FlatSeconds, a.FlatSeconds), strings.Compare(a.Function, b.Function))
	})
	return fs
}

// picksOf returns the picks of rep's minimal suite, in pick order.
func picksOf(rep *analysis.Report) []Pick {
	picks := []Pick{}
	for _, s := range rep.Suite.Steps {
		picks = append(picks, Pick{
			ID: s.ID, Added: s.Added, AddedProject: s.AddedProject, AddedOverall: s.AddedOverall,
			ImpactSeconds: ns(s.ImpactSeconds), ImpactShare: s.ImpactShare, AddedImpactSeconds: ns(s.AddedImpactSeconds),
			CumulativeProjectRatio: s.CumulativeProject.Ratio, CumulativeOverallRatio: s.CumulativeOverall.Ratio,
			CumulativeImpact: ns(s.CumulativeImpactSeconds), Functions: functionsOf(rep.Coverage.App, s.AddedNodes),
			AttributedImpactSeconds: ns(s.AttributedImpactSeconds), AttributedImpactShare: s.AttributedImpactShare,
			AddedAttributedImpactSeconds: ns(s.AddedAttributedImpactSeconds),
			CumulativeAttributedImpact:   ns(s.CumulativeAttributedImpactSeconds),
			Marginal:                     s.Marginal,
		})
	}
	return picks
}

// recommendationsOf returns rep's recommendations in their order, with
// their details for callable targets; none when rep has none.
func recommendationsOf(rep *analysis.Report) []Recommendation {
	recs := []Recommendation{}
	if rep.Recommendations == nil {
		return recs
	}
	cov := rep.Coverage
	app := cov.App
	for _, r := range rep.Recommendations.Recommendations {
		attributed := 0.0
		for _, id := range r.AddedNodes { // increasing ids: a reproducible sum
			attributed += coverage.AttributedImpact.NodeSeconds(&app.Nodes[id])
		}
		recs = append(recs, Recommendation{
			Function: r.Function, Package: r.Package, Distance: r.Distance,
			AddedProject: r.AddedProject, AddedExternal: r.AddedExternal,
			ImpactSeconds: ns(r.ImpactSeconds), ImpactShare: r.ImpactShare,
			CumulativeProjectRatio: r.CumulativeProject.Ratio, CumulativeOverallRatio: r.CumulativeOverall.Ratio,
			Functions:               functionsOf(app, r.AddedNodes),
			AttributedImpactSeconds: ns(attributed), AttributedImpactShare: cov.Share(attributed),
			Negligible: negligibleOf(r.Negligible), MaybeCoveredBy: r.Unseen,
		})
		if rep.Targets == recommend.Callable {
			describe(&recs[len(recs)-1], &r, rep)
		}
	}
	return recs
}

// negligibleOf is n as the Document holds it, nil for nil.
func negligibleOf(n *recommend.Negligible) *Negligible {
	if n == nil {
		return nil
	}
	return &Negligible{Share: n.Share, Inlined: n.Inlined, Lines: n.Lines, LinesFrom: n.LinesFrom}
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
