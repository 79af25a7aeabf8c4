package flow

import (
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/changes"
	"github.com/mbopt/mbopt/relevance/suite"
)

// CompareSuite is the glue from an analysis to a comparison: it sets the
// benchmarks opt compares to the suite the analysis rep selected, in pick
// order, with what each means for the application (analysis.Impacts) and
// the application's reference profile (Options.Relevance.Application,
// analysis.Application: each function's flat share of the application
// graph's CPU time and its split by caller); and, when ch (the changes
// since a revision) is not nil, which of them the change affects
// (Options.Relevance.Affected, keyed by top-level id; see
// analysis.AffectedSuite). It returns the suite and the hits as
// analysis.AffectedSuite does, for the caller to report, and fails as
// analysis.SuiteBenchmarks does. An empty suite leaves opt.Benchmarks
// empty.
func CompareSuite(rep *analysis.Report, ch *changes.Result, opt *compare.Options) ([]suite.Benchmark, []changes.Hit, error) {
	var sel []suite.Benchmark
	var hits []changes.Hit
	var err error
	if ch != nil {
		sel, hits, err = analysis.AffectedSuite(rep, ch)
	} else {
		sel, err = analysis.SuiteBenchmarks(rep)
	}
	if err != nil {
		return nil, nil, err
	}
	opt.Benchmarks = nil
	for _, b := range sel {
		opt.Benchmarks = append(opt.Benchmarks, compare.Benchmark{Package: b.Package, Name: b.Name})
	}
	rel := &opt.Relevance
	rel.Impacts = analysis.Impacts(rep)
	// The application's reference profile: what the culprits'
	// application impact weighs by.
	rel.Application = analysis.Application(rep)
	if ch != nil {
		rel.Affected = map[string]bool{}
		for _, b := range sel {
			id := benchname.ID(b.Package, benchname.Top(b.Name))
			rel.Affected[id] = rel.Affected[id] || b.Affected
		}
	}
	return sel, hits, nil
}

// ReferenceApplication is the reference profile of the analysis rep as
// the application's value a history stores with a comparison
// (history.RecordOptions.Application): the application profiles' total
// (CPU seconds for CPU profiles), named by their file names. It returns
// nil when rep has no application graph or its total is not positive.
func ReferenceApplication(rep *analysis.Report) *history.Application {
	if rep == nil || rep.Coverage == nil || rep.Coverage.App == nil {
		return nil
	}
	var names []string
	for _, p := range rep.AppProfiles {
		names = append(names, filepath.Base(p))
	}
	name := strings.Join(names, " + ")
	if name == "" {
		name = "reference profile"
	}
	return history.ProfileApplication(name, rep.Coverage.App.Total, rep.Coverage.App.Unit)
}
