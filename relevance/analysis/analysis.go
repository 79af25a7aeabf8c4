// Package analysis is mbopt's relevance half on files: it reads the
// application profile(s) and a directory or list of benchmark profiles,
// builds their call graphs ([callgraph]), computes coverage and reference
// impact ([coverage]), the minimal suite ([optimize], Algorithm 2) and
// recommendations ([recommend], Algorithm 3), and returns everything as one
// [Report] that package report renders.
//
// An analysis runs no benchmark and no program: it reads the files it is
// given, which may have been collected anywhere. Package relevance/flow
// is the one that runs things on a module: its Run profiles the
// benchmarks (package collect) and the application (package reference),
// then calls [Run]. The two words keep these meanings throughout mbopt: an
// analysis reads profiles, a run makes them and then analyses them.
//
// Bad application input is always an error. Bad benchmark profiles are
// normal in a large suite (a benchmark that failed or timed out leaves an
// empty or truncated file), so each is skipped and listed in
// [Report.Skipped], unless [Config.Strict] is set.
package analysis

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/gomod"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/sensitivity"
	"github.com/mbopt/mbopt/relevance/staticcg"
)

// Config says what to analyse. Only App and Micro are required.
type Config struct {
	// App lists the application (reference) profiles; several are merged
	// into one graph.
	App []string
	// Micro lists benchmark profiles and directories of them. A
	// directory contributes its files named *.pprof, *.prof, *.pb.gz or
	// *.pb; a benchmark's id is its file name without that extension.
	Micro []string
	// Modules are the project's module path prefixes, each an import
	// path (see [CheckModules]). When empty, the modules of the
	// benchmark profiles' manifests are used, else the module path of the
	// go.mod in Dir (or the nearest parent directory).
	Modules []string
	// AllowNoProject accepts an application none of whose functions lies
	// in Modules (every project-only figure is then 0/0), with a warning;
	// by default that is an input error holding a [*NoProjectFunctionsError].
	AllowNoProject bool
	// Dir is where to look for go.mod; "" means the current directory.
	Dir string
	// Exclude lists Go package patterns ("go help packages": "..." is a
	// wildcard, "x/..." matches x and below) of packages that are not
	// project code although they lie in Modules: typically the workload
	// driver that produced the application profile. A pattern starting
	// with "./" or "../", or ".", is relative to every project module:
	// "./cmd/..." with module example.com/m means "example.com/m/cmd/...".
	// Excluded functions stay in the graphs as external nodes (see
	// callgraph.Options.Exclude), so overall coverage is unchanged while
	// project-only coverage, the minimal suite's project criterion and
	// the recommendations leave them out.
	Exclude []string
	// Targets chooses the functions Algorithm 3 may recommend; the zero
	// value is the paper's recommend.AnyFunction. With recommend.Callable
	// each recommendation also carries the details a developer needs to
	// write the benchmark (recommend.Options.Details).
	Targets recommend.Targets
	// Nodes is the minimal suite's criterion.
	Nodes optimize.Nodes
	// Impact selects the application time that ranks benchmarks, breaks
	// Algorithm 2's ties and is the gain of the impact objective: the
	// attributed impact (the zero value) or the paper's flat reference
	// impact (see coverage.ImpactKind). Both are always computed and
	// reported.
	Impact coverage.ImpactKind
	// AppFunctions lists function sets of the application (covdata
	// files, written by `mbopt cover-app`): the application graph's nodes
	// then come from coverage and their weights from the App profiles
	// (see [Hybrid]).
	AppFunctions []string
	// Recommend is the number of recommendations; 0 disables them,
	// negative means no limit.
	Recommend int
	// KeepNegligible keeps negligible candidates (one-line getters,
	// comparators, small functions inlined into covered code: see
	// package recommend, "Negligible candidates") in Algorithm 3's order
	// with recommend.Callable targets instead of ranking them last; the
	// paper's targets always keep them. Either way they are marked.
	KeepNegligible bool
	// Edges chooses the application graph's edges that the
	// recommendations walk: the sampled ones (the zero value, the
	// paper's), the static call graph's between the application's
	// functions, or both (see package staticcg). Static edges need the
	// application's source (Static) and add an *EdgesNote saying how the
	// recommendations changed.
	Edges staticcg.Edges
	// Static configures the static call graph built for Edges static or
	// both; Static.Dir "" means Dir. Ignored with StaticGraph.
	Static staticcg.Options
	// StaticGraph, when not nil, is the static call graph to use instead
	// of building one from Static (one graph serves every profile of the
	// same source).
	StaticGraph *staticcg.Graph
	// Strict turns every skipped benchmark profile into an error.
	Strict bool
	// AllowNonCPU and AllowEmpty accept non-CPU and sample-less
	// profiles (see callgraph.Options).
	AllowNonCPU, AllowEmpty bool
	// Workers bounds parallel decoding; 0 means GOMAXPROCS.
	Workers int
	// Scenarios names the application workloads; App must then list all
	// their files. With two or more, the report compares them and the
	// suite covers their union.
	Scenarios []ScenarioSpec
	// Select goes beyond Algorithm 2 (objective, budget, top, min-gain);
	// the zero value keeps Algorithm 2.
	Select SelectConfig
	// Certify bounds the minimal suite's distance from optimal with the
	// LP relaxation (see optimize.Certify).
	Certify bool
	// Limits bounds the size of every profile file read (see
	// callgraph.Limits); zero fields mean callgraph.DefaultLimits. A
	// benchmark profile over a limit is skipped, an application profile
	// over one is an error.
	Limits callgraph.Limits
	// Sensitivity, when not nil, asks for the detectable slowdowns of
	// the project's functions (Report.Sensitivity; see [Sensitivity]).
	Sensitivity *SensitivityConfig
}

// A SensitivityConfig says how to compute an analysis's detectable
// slowdowns (package sensitivity).
type SensitivityConfig struct {
	// DefaultMDE is the minimum detectable effect of a benchmark not in
	// MDEs; 0 means the typical value for the profiles' source
	// (sensitivity.InstructionsMDE or CPUMDE).
	DefaultMDE float64
	// MDEs are benchmarks' measured minimum detectable effects, by id
	// (from their latest comparisons: compare/flow.SensitivityMDEs reads
	// them from a history).
	MDEs map[string]float64
	// History is the history database MDEs were read from, which the
	// report names (Report.MDEHistory); "" when they came from elsewhere
	// or there are none.
	History string
	// HistoryWarning, when not nil, says why the history database the
	// MDEs would have been read from could not be (compare/flow reads the
	// module's default one that way: a damaged or foreign file there
	// fails no analysis); MDEs then hold none of it, and Run reports it
	// as an [*MDEHistoryWarning].
	HistoryWarning error
}

// The fields of [Config] (and [DriftConfig]) that input errors name
// (mbopt.Field paths).
const (
	FieldApp                     mbopt.Field = "App"
	FieldAppFunctions            mbopt.Field = "AppFunctions"
	FieldEdges                   mbopt.Field = "Edges"
	FieldExclude                 mbopt.Field = "Exclude"
	FieldImpact                  mbopt.Field = "Impact"
	FieldMicro                   mbopt.Field = "Micro"
	FieldMinCoverage             mbopt.Field = "MinCoverage"
	FieldModules                 mbopt.Field = "Modules"
	FieldNodes                   mbopt.Field = "Nodes"
	FieldRecommend               mbopt.Field = "Recommend"
	FieldReport                  mbopt.Field = "Report"
	FieldScenarios               mbopt.Field = "Scenarios"
	FieldScenariosWeight         mbopt.Field = "Scenarios.Weight"
	FieldSelectBudget            mbopt.Field = "Select.Budget"
	FieldSelectCostsFile         mbopt.Field = "Select.CostsFile"
	FieldSelectExcludeBenchmarks mbopt.Field = "Select.ExcludeBenchmarks"
	FieldSelectDefaultCost       mbopt.Field = "Select.DefaultCost"
	FieldSelectMinGain           mbopt.Field = "Select.MinGain"
	FieldSelectObjective         mbopt.Field = "Select.Objective"
	FieldSelectTop               mbopt.Field = "Select.Top"
	FieldStaticDir               mbopt.Field = "Static.Dir"
	FieldStrict                  mbopt.Field = "Strict"
	FieldTargets                 mbopt.Field = "Targets"
)

// Report is the outcome of [Run].
type Report struct {
	// Modules are the project module prefixes used.
	Modules []string
	// Exclude are the import path patterns of the packages taken out of
	// the project, Config.Exclude with relative patterns resolved, one
	// per module, in order.
	Exclude []string
	// Targets is Config.Targets: the candidate set the recommendations
	// were (or, with none asked for, would have been) chosen from.
	Targets recommend.Targets
	// Impact is Config.Impact: the impact that ranks benchmarks and that
	// the suite's tie-break and impact objective used.
	Impact coverage.ImpactKind
	// AppProfiles are the application profiles, in the order given.
	AppProfiles []string
	// Coverage holds the application graph and every coverage set.
	Coverage *coverage.Result
	// Profiles maps benchmark id to profile path.
	Profiles map[string]string
	// Scope is manifest.ScopeTimed when the benchmarks are function sets
	// or instruction profiles of their timed loops (collected with scope
	// timed): their coverage
	// leaves out the setup before b.ResetTimer and the validation after
	// b.StopTimer, and a function that runs a constant number of times per
	// benchmark. It is empty for profiles and for sets of whole runs,
	// which count everything a benchmark's process ran, as the papers do.
	Scope manifest.Scope
	// Source says what the benchmarks are: manifest.SourceCover for
	// function sets, manifest.SourceInstructions for instruction profiles
	// (weighted in instructions, not seconds), empty for CPU profiles.
	Source manifest.Source
	// Suite is the minimal suite.
	Suite *optimize.Result
	// Hybrid compares the profile's and the coverage's functions; nil
	// without Config.AppFunctions.
	Hybrid *Hybrid
	// Recommendations is nil when none were asked for.
	Recommendations *recommend.Result
	// Thin lists the benchmarks whose profiles took too few samples to
	// trust, by id, with what each may hide (see [ThinBenchmark]).
	Thin []ThinBenchmark
	// Edges describes the static edges the recommendations walked; nil
	// with Config.Edges sampled or without recommendations.
	Edges *staticcg.Stats
	// Skipped lists benchmarks left out: first those a collection
	// manifest records as not ok, then unusable profiles, each sorted by
	// file.
	Skipped []Skip
	// Entries holds the manifest entries (package collect) of the
	// benchmarks, by id, when the profiles came with a manifest.json;
	// empty otherwise.
	Entries map[string]manifest.Entry
	// Warnings are caveats that did not stop the analysis, in the order
	// found: *ModuleFromGoModWarning, *NoProjectFunctionWarning,
	// *NoSharedFunctionWarning, *ExcludeUnmatchedWarning, *CmdTargetsNote,
	// *ThinProfileWarning, *ThinBenchmarksWarning, *UnnamedFramesWarning,
	// *ExclusionNote, *CostSourceNote, *UnmatchedFunctionsWarning, *EdgesNote, *HybridNote,
	// *MDEHistoryWarning
	// and *NoCertificateWarning (pick them out with errors.As). The
	// *ExclusionNote, *CostSourceNote, *EdgesNote and *HybridNote are
	// information, not caveats: see [Note] and [IsNote].
	Warnings []error
	// Scenarios compares the application scenarios; nil with fewer than
	// two.
	Scenarios *coverage.ScenarioSet
	// Selection is the selection beyond Algorithm 2 that Suite holds the
	// steps of; nil when Config.Select asked for none.
	Selection *optimize.Selection
	// Certificate bounds Algorithm 2's suite from below (with Caught,
	// the caught objective's); nil unless Config.Certify.
	Certificate *optimize.Certificate
	// SuiteCost compares Algorithm 2's suite's running cost with the
	// cheapest suite of the same coverage; nil when the costs are not
	// known for every benchmark that covers a counted node.
	SuiteCost *SuiteCost
	// CostCertificate bounds the cheapest suite's cost from below; nil
	// unless Config.Certify with the cost objective.
	CostCertificate *optimize.CostCertificate
	// Sensitivity is what the suite would catch of the project's
	// functions; nil unless Config.Sensitivity.
	Sensitivity *sensitivity.Result
	// Caught is what the caught objective kept; nil unless it chose the
	// suite (Config.Select.Objective optimize.Caught). With it,
	// Certificate bounds the smallest suite that catches the same
	// functions.
	Caught *CaughtSuite
	// MDEHistory is the history database the measured minimum
	// detectable effects of Sensitivity and Caught came from
	// (SensitivityConfig.History); "" when neither is computed or no
	// history gave them.
	MDEHistory string

	// read is what Run read the benchmark profiles with (Config's
	// modules, exclusions, limits, AllowNonCPU and AllowEmpty), which
	// [SensitivityBenchmarks] reads them with again: see [benchmarkOptions].
	read callgraph.Options
}

func (c *Config) workers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Run executes the analysis. Errors caused by the input match [mbopt.ErrInput]
// and name the offending file or setting; those about a setting are
// *[mbopt.Error]s.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	rep := &Report{AppProfiles: cfg.App, Profiles: map[string]string{}, Impact: cfg.Impact, Targets: cfg.Targets}

	files, manifests, preSkipped, err := benchmarkFiles(cfg.Micro)
	if err != nil {
		return nil, err
	}
	rep.Entries = map[string]manifest.Entry{}
	for _, m := range manifests {
		for _, e := range m.Benchmarks {
			rep.Entries[e.ID] = e
		}
	}
	from, manifestMods, err := projectModules(cfg, manifests, rep)
	if err != nil {
		return nil, err
	}
	mods := rep.Modules
	exclude, err := resolveExclude(cfg.Exclude, mods)
	if err != nil {
		return nil, err
	}
	rep.Exclude = exclude
	opts := callgraph.Options{Modules: mods, Exclude: exclude, AllowNonCPU: cfg.AllowNonCPU, AllowEmpty: cfg.AllowEmpty, Limits: cfg.Limits}
	rep.read = opts

	if err := ctx.Err(); err != nil {
		return nil, err
	}

	app, err := loadApplication(cfg, opts, rep, from, manifestMods)
	if err != nil {
		return nil, err
	}
	benches, err := usableBenchmarks(ctx, cfg, files, preSkipped, app, opts, rep)
	if err != nil {
		return nil, err
	}
	cbs := make([]coverage.Benchmark, len(benches))
	for i, b := range benches {
		cbs[i] = coverage.Benchmark{ID: b.id, Footprint: b.fp}
		rep.Profiles[b.id] = b.file
	}
	rep.Coverage = coverage.Compute(app, cbs)
	for _, s := range rep.Coverage.Sets {
		if s.OverallNodes == 0 {
			rep.Warnings = append(rep.Warnings, &NoSharedFunctionWarning{ID: s.ID})
		}
	}
	rep.Thin = thinBenchmarks(rep.Coverage, benches)
	rep.Warnings = append(rep.Warnings, thinProfiles(cfg.App, app.SamplesTaken, app.Unit == "seconds", rep.Thin)...)
	if n := excludedSets(cfg.Select.ExcludeBenchmarks, rep); n != nil {
		rep.Warnings = append(rep.Warnings, n)
	}
	rep.Suite = optimize.Greedy(rep.Coverage, optimize.Options{Nodes: cfg.Nodes, Impact: cfg.Impact, Exclude: excluded(rep)})
	scenarios, weighted, err := compareScenarios(cfg.Scenarios, rep.Coverage.App, opts, cbs)
	if err != nil {
		return nil, err
	}
	rep.Scenarios = scenarios
	if err := selectSuite(ctx, cfg, rep, manifests, cbs, weighted); err != nil {
		return nil, err
	}
	noteMDEHistory(cfg, rep)
	if cfg.Recommend == 0 && cfg.Sensitivity == nil {
		return rep, nil
	}
	ropts := recommendOptions(cfg, rep)
	if cfg.Recommend != 0 {
		if rep.Recommendations, err = recommendations(ctx, cfg, rep, ropts); err != nil {
			return nil, err
		}
	}
	if cfg.Sensitivity != nil {
		if rep.Sensitivity, err = cfg.Sensitivity.run(ctx, rep, ropts); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// noteMDEHistory sets rep.MDEHistory, and adds the *MDEHistoryWarning of
// a history that could not be read, from the MDE configuration of the
// detectable slowdowns or, without them, of the caught objective when it
// chose the suite.
func noteMDEHistory(cfg Config, rep *Report) {
	c := cfg.Sensitivity
	if c == nil && rep.Caught != nil {
		c = &cfg.Select.Caught
	}
	if c == nil {
		return
	}
	if len(c.MDEs) > 0 {
		rep.MDEHistory = c.History
	}
	if c.HistoryWarning != nil {
		rep.Warnings = append(rep.Warnings, &MDEHistoryWarning{Err: c.HistoryWarning})
	}
}

// recommendOptions returns the options of Algorithm 3's recommendations,
// whose targets rules the sensitivity recommendations share, appending
// the note on the commands left out of the targets to rep's warnings.
func recommendOptions(cfg Config, rep *Report) recommend.Options {
	opts := recommend.Options{N: max(cfg.Recommend, 0), Targets: cfg.Targets, Details: cfg.Targets == recommend.Callable,
		Thin: recommendThin(rep.Coverage, rep.Thin), KeepNegligible: cfg.KeepNegligible, Lines: sourceLines(rep.Coverage.App, sourceDir(cfg))}
	if cfg.Targets == recommend.Callable {
		var note error
		opts.NotTarget, note = cmdTargets(rep.Coverage.App, rep.Coverage.Covered, rep.Modules)
		if note != nil {
			rep.Warnings = append(rep.Warnings, note)
		}
	}
	return opts
}

// Check returns the input error of the first setting of c that [Run]
// cannot use, nil when there is none; Run checks it first.
func (c *Config) Check() error {
	if len(c.App) == 0 {
		return mbopt.Errorf("no application profile: give at least one with %s", FieldApp)
	}
	if len(c.Micro) == 0 {
		return mbopt.Errorf("no benchmark profiles: give a directory or files with %s", FieldMicro)
	}
	if err := c.Select.validate(); err != nil {
		return err
	}
	if c.Impact != coverage.AttributedImpact && c.Impact != coverage.FlatImpact {
		return mbopt.Errorf("%s must be coverage.AttributedImpact or coverage.FlatImpact, not %d", FieldImpact, int(c.Impact))
	}
	if c.Edges < staticcg.Sampled || c.Edges > staticcg.Both {
		return mbopt.Errorf("%s must be staticcg.Sampled, Static or Both, not %d", FieldEdges, int(c.Edges))
	}
	if err := CheckModules(c.Modules); err != nil {
		return err
	}
	if err := checkScenarios(c.Scenarios); err != nil {
		return err
	}
	return nil
}

// projectModules sets rep.Modules to the modules whose code is the
// project's: Config.Modules, else the modules of every manifest, else the
// module of Config.Dir, with a warning. It returns where they come from,
// as messages name it, and the manifests' modules.
func projectModules(cfg Config, manifests []dirManifest, rep *Report) (from string, manifestMods []string, err error) {
	// Every manifest's module is project code: several manifests may
	// come from several modules of one repository.
	for _, m := range manifests {
		if m.Module != "" && !slices.Contains(manifestMods, m.Module) {
			manifestMods = append(manifestMods, m.Module)
		}
	}
	mods, from := cfg.Modules, "Config.Modules"
	if len(mods) == 0 && len(manifestMods) > 0 {
		mods, from = manifestMods, "the manifest"
	}
	if len(mods) == 0 {
		mod, err := findModule(cfg.Dir)
		if err != nil {
			return "", nil, err
		}
		mods, from = []string{mod.Path}, mod.GoMod
		rep.Warnings = append(rep.Warnings, &ModuleFromGoModWarning{Module: mod.Path, GoMod: mod.GoMod})
	}
	rep.Modules = mods
	return from, manifestMods, nil
}

// loadApplication loads the application profiles (with the function sets
// of a hybrid application) into a graph, and adds the warnings about it to
// rep. An application without project functions is an error unless
// Config.AllowNoProject; from and manifestMods say where the modules came
// from, for its message.
func loadApplication(cfg Config, opts callgraph.Options, rep *Report, from string, manifestMods []string) (*callgraph.Graph, error) {
	mods := rep.Modules
	app, err := callgraph.Load(cfg.App, opts)
	if err != nil {
		return nil, mbopt.Wrap(fmt.Errorf("application profile %w", err))
	}
	if len(cfg.AppFunctions) > 0 {
		if app, rep.Hybrid, err = hybridGraph(app, cfg.AppFunctions, opts); err != nil {
			return nil, err
		}
		rep.Warnings = append(rep.Warnings, &HybridNote{Hybrid: rep.Hybrid})
	}
	if app.UnnamedFrames > 0 {
		rep.Warnings = append(rep.Warnings, &UnnamedFramesWarning{Frames: app.UnnamedFrames, Seconds: app.Unattributed, Unit: app.Unit, Total: app.Total})
	}
	if app.ProjectLen() == 0 {
		nope := &NoProjectFunctionsError{Modules: mods, From: from, AppProfiles: cfg.App,
			Candidates: ModuleCandidates(app, 5), ManifestModules: manifestMods,
			Samples: app.SamplesTaken, Total: app.Total, Unit: app.Unit}
		if !cfg.AllowNoProject {
			return nil, mbopt.Wrap(nope)
		}
		rep.Warnings = append(rep.Warnings, &NoProjectFunctionWarning{Modules: mods})
	}
	rep.Warnings = append(rep.Warnings, unmatchedExcludes(cfg.Exclude, rep.Exclude, mods, app)...)
	return app, nil
}

// usableBenchmarks loads files into footprints over app and returns those
// that load. It records the benchmarks' scope and source and the skipped
// benchmarks (preSkipped, then those that do not load) in rep. A skip is an
// error under Config.Strict, and so is a suite without any usable
// benchmark.
func usableBenchmarks(ctx context.Context, cfg Config, files []benchFile, preSkipped []Skip, app *callgraph.Graph, opts callgraph.Options, rep *Report) ([]loaded, error) {
	benches, skipped, err := loadBenchmarks(ctx, files, app, opts, cfg.workers())
	if err != nil {
		return nil, err
	}
	if rep.Scope, err = benchmarkScope(benches); err != nil {
		return nil, err
	}
	rep.Source = benchmarkSource(benches)
	skipped = append(preSkipped, skipped...)
	if len(skipped) > 0 && cfg.Strict {
		return nil, mbopt.Errorf("%w (%s makes every unusable benchmark profile an error)", &skipped[0], FieldStrict)
	}
	rep.Skipped = skipped
	if len(benches) == 0 {
		if len(skipped) == 0 {
			return nil, mbopt.Errorf("%s: the manifest lists no benchmark", strings.Join(cfg.Micro, ", "))
		}
		if len(skipped) == 1 {
			return nil, mbopt.Errorf("the one benchmark is not usable: %s: %s", skipped[0].File, skipped[0].Reason)
		}
		return nil, mbopt.Errorf("none of the %d benchmarks is usable (first: %s: %s)", len(skipped), skipped[0].File, skipped[0].Reason)
	}
	return benches, nil
}

// findModule returns the module of dir (package internal/gomod), which
// names the project when Config.Modules is not set.
func findModule(dir string) (gomod.Module, error) {
	mod, err := gomod.Find(dir)
	switch {
	case errors.Is(err, gomod.ErrNoModule):
		abs, _ := filepath.Abs(cmp.Or(dir, "."))
		return mod, mbopt.Errorf("no go.mod in %s or above to name the project: pass %s with the profiled program's module path", abs, FieldModules)
	case errors.Is(err, gomod.ErrNoModulePath):
		return mod, mbopt.Errorf("%v; set %s", err, FieldModules)
	case err != nil:
		return mod, mbopt.Wrap(err)
	}
	return mod, nil
}
