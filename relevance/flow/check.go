package flow

import (
	"bytes"
	"context"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/suite"
)

// The fields of a [CheckConfig] that input errors name, besides App and
// Micro, named as in analysis.Config.
const (
	FieldSuiteFile   mbopt.Field = "SuiteFile"
	FieldMinCoverage mbopt.Field = "MinCoverage"
)

// A CheckConfig is a drift check as mbopt check runs it ([Check]).
type CheckConfig struct {
	// SuiteFile is the saved suite, the JSON of suite.Write.
	SuiteFile string
	// Dir is a directory of the module whose benchmarks the suite must
	// still name; "" means the current directory.
	Dir string
	// App, Micro, Modules and Exclude, when Micro is set, are the
	// analysis (as in an analysis.Config) for the checks that need the
	// profiles; App names scenarios as analysis.ParseApps reads them.
	App, Micro, Modules, Exclude []string
	// MinCoverage is the lowest acceptable project coverage of the
	// application by the suite, in percent (0: no check); it needs App and
	// Micro.
	MinCoverage float64
}

// Check checks that the saved suite cfg.SuiteFile still fits the module in
// cfg.Dir (analysis.CheckDrift): every benchmark it names is still
// declared and, with cfg.Micro, still profiled, and still covers the
// application. It returns the analysis of the profiles too (nil without
// Micro), also with an error of CheckDrift, so that the caller can report
// the profiles it skipped.
func Check(ctx context.Context, cfg CheckConfig) (*analysis.Drift, *analysis.Report, error) {
	if err := cfg.Check(); err != nil {
		return nil, nil, err
	}
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	data, err := regfile.ReadFile(cfg.SuiteFile, 64<<20)
	if err != nil {
		return nil, nil, mbopt.Errorf("%s %s: %v", FieldSuiteFile, cfg.SuiteFile, err)
	}
	invs, err := suite.ReadJSON(bytes.NewReader(data))
	if err != nil {
		return nil, nil, mbopt.Errorf("%s %s: %v; write it with 'mbopt suite --format json -o %s'", FieldSuiteFile, cfg.SuiteFile, err, cfg.SuiteFile)
	}
	pkgs, err := collect.Discover(ctx, collect.Config{Dir: dir})
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, err
		}
		return nil, nil, mbopt.Errorf("%s: finding the module's benchmarks: %v", dir, err)
	}
	declared := map[string][]string{}
	for _, p := range pkgs {
		declared[p.Path] = p.Benchmarks
	}
	dc := analysis.DriftConfig{Suite: suite.Benchmarks(invs), Declared: declared, MinCoverage: cfg.MinCoverage / 100}
	if len(cfg.Micro) > 0 {
		apps, scenarios, err := analysis.ParseApps(cfg.App, nil)
		if err != nil {
			return nil, nil, err
		}
		if dc.Report, err = analysis.Run(ctx, analysis.Config{App: apps, Scenarios: scenarios, Micro: cfg.Micro, Modules: cfg.Modules, Exclude: cfg.Exclude, Dir: dir, AllowNoProject: true}); err != nil {
			return nil, nil, err
		}
	}
	d, err := analysis.CheckDrift(dc)
	return d, dc.Report, err
}

// Check checks the settings, as [Check] does before it reads anything: an
// [*mbopt.Error] naming the first field no check can use.
func (cfg *CheckConfig) Check() error {
	minCov := FieldMinCoverage
	switch {
	case cfg.SuiteFile == "":
		return mbopt.Errorf("%s is required: the JSON file 'mbopt suite --format json -o FILE' wrote", FieldSuiteFile)
	case !(cfg.MinCoverage >= 0 && cfg.MinCoverage <= 100):
		return mbopt.Errorf("%s must be a percentage in [0, 100], not %g", minCov, cfg.MinCoverage)
	case (len(cfg.App) == 0) != (len(cfg.Micro) == 0):
		return mbopt.Errorf("%s and %s go together: the profile checks compare the benchmark profiles with the application", analysis.FieldApp, analysis.FieldMicro)
	case cfg.MinCoverage > 0 && len(cfg.App) == 0:
		return mbopt.Errorf("%s needs %s and %s: coverage is measured from the profiles", minCov, analysis.FieldApp, analysis.FieldMicro)
	}
	return nil
}
