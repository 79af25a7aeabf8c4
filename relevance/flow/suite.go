package flow

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/changes"
	"github.com/mbopt/mbopt/relevance/suite"
)

// A SuiteConfig is the optimized suite as mbopt suite plans it ([Suite]).
type SuiteConfig struct {
	// Config configures the analysis; its recommendations and
	// certificate are not computed.
	analysis.Config
	// ChangedSince, when set, marks the benchmarks that cover a function
	// changed since this revision (changes.MergeBase: the default base)
	// in the work tree.
	ChangedSince string
	// OnlyAffected plans only the benchmarks ChangedSince marks.
	OnlyAffected bool
	// AllowEmpty accepts an empty suite instead of failing.
	AllowEmpty bool
}

// FieldAllowEmpty is the [SuiteConfig] field its input errors name,
// besides those of analysis.Config.
const FieldAllowEmpty mbopt.Field = "AllowEmpty"

// A SuiteResult is a suite planned by [Suite].
type SuiteResult struct {
	// Report is the analysis.
	Report *analysis.Report
	// Invocations are the go test invocations of the suite.
	Invocations []suite.Invocation
	// Changes are the changes since ChangedSince; nil without it.
	Changes *changes.Result
	// Selected are the benchmarks of the suite.
	Selected []suite.Benchmark
	// Hits are the benchmarks the change affects.
	Hits []changes.Hit

	onlyAffected bool
}

// Suite runs the analysis of cfg and plans its optimized suite as go test
// invocations (suite.Plan), marking the benchmarks a change affects. An
// empty suite, unless allowed, is an input error that says why: no
// benchmark covers a node the suite must keep covered, or the selection
// stopped before its first pick. Once the analysis ran, the result holds
// its Report, also with an error.
func Suite(ctx context.Context, cfg SuiteConfig) (*SuiteResult, error) {
	if err := changes.CheckSince(cfg.ChangedSince, cfg.OnlyAffected); err != nil {
		return nil, err
	}
	acfg := cfg.Config
	acfg.Recommend, acfg.Certify = 0, false
	rep, err := analysis.Run(ctx, acfg)
	if err != nil {
		return nil, err
	}
	if len(rep.Suite.Steps) == 0 && !cfg.AllowEmpty {
		return nil, emptySuiteError(acfg, rep)
	}
	res := &SuiteResult{Report: rep, onlyAffected: cfg.OnlyAffected}
	if res.Selected, err = analysis.SuiteBenchmarks(rep); err != nil {
		return res, err
	}
	if cfg.ChangedSince != "" {
		if res.Changes, err = changes.Since(ctx, cfg.ChangedSince, ""); err != nil {
			return res, err
		}
		if res.Selected, res.Hits, err = analysis.AffectedSuite(rep, res.Changes); err != nil {
			return res, err
		}
	}
	res.Invocations, err = suite.Plan(res.Selected, suite.Options{OnlyAffected: cfg.OnlyAffected})
	return res, err
}

// Log returns the lines of a log that say what the suite is: what changed
// and whom it affects (with ChangedSince), then how many of the
// benchmarks it plans, in how many packages.
func (r *SuiteResult) Log() []string {
	var lines []string
	if r.Changes != nil {
		lines = r.Changes.Summary(len(r.Hits), len(r.Selected))
	}
	planned := len(r.Selected)
	if r.onlyAffected {
		planned = 0
		for _, inv := range r.Invocations {
			planned += len(inv.Benchmarks)
		}
	}
	return append(lines, fmt.Sprintf("%d of %s in %s", planned, textutil.Plural(len(r.Report.Coverage.Sets), "benchmark"), textutil.Plural(len(r.Invocations), "package")))
}

// emptySuiteError says why the suite of rep is empty: no benchmark covers a
// node the suite must keep covered, or the selection settings stopped
// before the first pick.
func emptySuiteError(cfg analysis.Config, rep *analysis.Report) error {
	files := strings.Join(cfg.Micro, ", ")
	cov := rep.Coverage.Project
	kind, kindArgs := "project functions (%s %s)", []any{analysis.FieldModules, strings.Join(rep.Modules, ", ")}
	if rep.Suite.Nodes == optimize.AllNodes {
		cov, kind, kindArgs = rep.Coverage.Overall, "functions", nil
	}
	if cov.Covered == 0 {
		args := append([]any{files, textutil.Plural(len(rep.Coverage.Sets), "benchmark"), cov.Total}, kindArgs...)
		return mbopt.Errorf("%s: the suite is empty: none of the %s covers any of the %d "+kind+" of the application profile %s, so nothing would run; check %s and that the benchmarks exercise the application's code, or pass %s",
			append(args, strings.Join(rep.AppProfiles, ", "), analysis.FieldModules, FieldAllowEmpty)...)
	}
	budget := time.Duration(math.Round(cfg.Select.Budget * float64(time.Second)))
	args := append([]any{files, analysis.FieldSelectBudget, budget, analysis.FieldSelectMinGain, cfg.Select.MinGain, analysis.FieldSelectTop, cfg.Select.Top, cov.Covered, cov.Total}, kindArgs...)
	return mbopt.Errorf("%s: the suite is empty: the selection flags (%s %s, %s %d, %s %d) left no benchmark although %d of %d "+kind+" are covered; loosen them, or pass %s",
		append(args, FieldAllowEmpty)...)
}
