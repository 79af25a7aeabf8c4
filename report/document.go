// Package report renders an analysis (the suite report) for people and
// programs: text ([WriteText]), Markdown ([WriteMarkdown]), HTML
// ([WriteHTML]), its figures ([Figures], drawn by package report/plot), a
// report directory of all of them ([WriteDir]), a GitHub Actions step
// summary ([GitHub]), and a JSON document, [Document], what mbopt analyze
// --format json writes. The other documents have packages of their own:
// report/verdict renders a comparison of two revisions, report/trend a
// benchmark history, report/site a history as a web site.
//
// The meaning of each field of the JSON document is documented on
// Document and the types it holds. The schema is stable: a field keeps its
// name and meaning ([Version] changes when one does not), new fields may
// be added, every list is present (possibly empty), ratios and shares are
// in [0, 1], and times are in seconds (in the profile's own unit for
// non-CPU profiles). Optional
// objects (selection, certificate, cost_certificate, suite_cost,
// scenarios) appear only when the analysis computed them.
//
// Every list has a defined order, the same in every format: benchmarks by
// the impact [Document.Impact] names (largest first, then id), the minimal
// suite and the recommendations in pick order, the functions a pick adds
// by application flat time (largest first, then name), thin benchmarks by
// id, skipped files by path.
package report

import (
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/sensitivity"
)

// Version is the JSON schema version; it changes only when a field changes
// meaning or disappears.
const Version = 1

// Document is the JSON form of an analysis.
type Document struct {
	// Version is the schema version, [Version].
	Version int `json:"version"`
	// Modules are the project module prefixes.
	Modules []string `json:"modules"`
	// Criterion is the minimal suite's node criterion: "project" or "all".
	Criterion string `json:"criterion"`
	// Impact is "attributed" or "flat": the impact (see
	// coverage.ImpactKind) that orders Benchmarks, that the suite's
	// tie-break and impact objective used, and that the text, Markdown,
	// HTML and figures show first. Both are always in the JSON.
	Impact string `json:"impact"`
	// Application describes the application (reference) graph, the
	// merge of every application profile.
	Application Application `json:"application"`
	// Coverage is the whole suite's coverage of the application graph.
	Coverage Coverage `json:"coverage"`
	// Scope is "timed" when the benchmarks are function sets of their
	// timed loops (collected with scope timed), whose coverage leaves out
	// their setup and validation; absent for profiles and sets of whole
	// runs, which count all that a benchmark's process ran.
	Scope string `json:"scope,omitempty"`
	// Source is "cover" when the benchmarks are function sets and
	// "instructions" when they are instruction profiles (weighted in
	// instructions counted under Valgrind); absent for CPU profiles.
	Source string `json:"source,omitempty"`
	// Benchmarks holds every analysed benchmark, by the impact Impact
	// names (largest first), then id.
	Benchmarks []Benchmark `json:"benchmarks"`
	// MinimalSuite holds Algorithm 2's picks in order.
	MinimalSuite []Pick `json:"minimal_suite"`
	// Recommendations holds Algorithm 3's picks in order.
	Recommendations []Recommendation `json:"recommendations"`
	// RecommendationShortfall, when fewer recommendations came out than
	// were asked for, says why and what to run for more; absent otherwise.
	RecommendationShortfall *Shortfall `json:"recommendation_shortfall,omitempty"`
	// RecommendationTargets is "callable" when the recommendations are
	// (or, with none asked for, would be) functions a benchmark can call,
	// closures folded in (the default of the command line); absent for
	// the paper's targets, any function.
	RecommendationTargets string `json:"recommendation_targets,omitempty"`
	// NegligibleLast reports that negligible candidates (see
	// [Negligible]) were ranked after all others; absent when they kept
	// Algorithm 3's order (the paper's targets, or callable targets with
	// analysis.Config.KeepNegligible).
	NegligibleLast bool `json:"negligible_last,omitempty"`
	// ThinBenchmarks lists the benchmarks whose CPU profiles took too
	// few samples to trust, by id, with what each may hide.
	ThinBenchmarks []ThinBenchmark `json:"thin_benchmarks"`
	// Skipped lists unusable benchmark profiles, by file.
	Skipped []Skipped `json:"skipped"`
	// Warnings are caveats that did not stop the analysis (what the CLI
	// prints on stderr), in the order they arose; empty, never null.
	Warnings []string `json:"warnings"`
	// Selection describes a suite chosen beyond Algorithm 2 (objective,
	// budget, top, min-gain); absent for plain Algorithm 2.
	Selection *Selection `json:"selection,omitempty"`
	// Certificate bounds the minimal suite's size from below; absent
	// unless asked for.
	Certificate *Certificate `json:"certificate,omitempty"`
	// Scenarios compares several application scenarios; absent with one.
	Scenarios *Scenarios `json:"scenarios,omitempty"`
	// SuiteCost compares Algorithm 2's suite cost with the cheapest
	// suite of the same coverage; absent when the costs are not known.
	SuiteCost *SuiteCost `json:"suite_cost,omitempty"`
	// CostCertificate bounds the cheapest suite's cost from below;
	// absent unless asked for with the cost objective.
	CostCertificate *CostCertificate `json:"cost_certificate,omitempty"`
	// Sensitivity is what the suite would catch: each project function's
	// detectable slowdown (null: never), the caught curves of the whole
	// suite and of the minimal suite, and the functions a 10% slowdown
	// would go unnoticed in (package sensitivity defines them); absent
	// unless asked for (mbopt analyze --sensitivity). Its application
	// shares are of the application's CPU time, or of its
	// Application.Unit when that is set.
	Sensitivity *sensitivity.Result `json:"sensitivity,omitempty"`
	// MDEHistory is the history database the measured minimum
	// detectable effects of Sensitivity and of the caught objective's
	// selection came from (analysis.Report.MDEHistory); absent when none
	// was read.
	MDEHistory string `json:"mde_history,omitempty"`
}

// Application describes the reference graph.
type Application struct {
	// Profiles are the application profiles' paths, as given.
	Profiles []string `json:"profiles"`
	// Nodes counts the application graph's functions.
	Nodes int `json:"nodes"`
	// ProjectNodes counts those in a project module (at most Nodes).
	ProjectNodes int `json:"project_nodes"`
	// Unit is the unit of the application's weights when they are not
	// CPU seconds: the sample type's unit of a profile read with
	// AllowNonCPU, such as "instructions" (mbopt profile --source
	// instructions); absent for CPU profiles. Every "seconds" figure of
	// the application's time (its total, the impacts, the functions'
	// flat and cumulative values) is then in this unit; benchmark costs
	// and budgets stay seconds.
	Unit string `json:"unit,omitempty"`
	// TotalSeconds is the application's CPU time in seconds (the sum of
	// every node's flat time; in Unit when it is set).
	TotalSeconds float64 `json:"total_seconds"`
	// OutsideProjectSeconds is the application time with no project
	// frame on its stack (callgraph.Graph.OutsideProject), which no
	// attributed impact includes, in seconds.
	OutsideProjectSeconds float64 `json:"outside_project_seconds"`
	// OutsideProjectShare is OutsideProjectSeconds over TotalSeconds, in
	// [0, 1].
	OutsideProjectShare float64 `json:"outside_project_share"`
}

// Coverage is the suite's coverage of the application.
type Coverage struct {
	// Project is the project-only coverage: covered project nodes over
	// the application's project nodes.
	Project Ratio `json:"project"`
	// Overall is the coverage of all application nodes.
	Overall Ratio `json:"overall"`
}

// Ratio is covered/total.
type Ratio struct {
	// Covered counts the covered nodes, at most Total.
	Covered int `json:"covered"`
	// Total counts the nodes that can be covered.
	Total int `json:"total"`
	// Ratio is Covered/Total in [0, 1], 0 when Total is 0.
	Ratio float64 `json:"ratio"`
}

// Benchmark is one benchmark's coverage, reference impact and attributed
// impact.
type Benchmark struct {
	// ID is the benchmark's id: from the collection manifest, else its
	// profile's file name without the extension. Unique in a Document.
	ID string `json:"id"`
	// Profile is the path of the benchmark's profile.
	Profile string `json:"profile"`
	// ProjectNodes counts the application's project nodes the benchmark
	// covers (its coverage set's project part).
	ProjectNodes int `json:"project_nodes"`
	// OverallNodes counts all application nodes it covers.
	OverallNodes int `json:"overall_nodes"`
	// ImpactSeconds is the benchmark's reference impact: the
	// application's flat time summed over its coverage set, in seconds.
	ImpactSeconds float64 `json:"impact_seconds"`
	// ImpactShare is ImpactSeconds over the application's TotalSeconds,
	// in [0, 1].
	ImpactShare float64 `json:"impact_share"`
	// AttributedImpactSeconds is the benchmark's attributed impact: the
	// application time charged to the project functions it covers (each
	// sample to its innermost project frame), in seconds.
	AttributedImpactSeconds float64 `json:"attributed_impact_seconds"`
	// AttributedImpactShare is AttributedImpactSeconds over the
	// application's TotalSeconds, in [0, 1].
	AttributedImpactShare float64 `json:"attributed_impact_share"`
	// GraphNodes counts the functions of the benchmark's own call graph,
	// covered or not.
	GraphNodes int `json:"graph_nodes"`
	// Selected reports whether the benchmark is in the minimal suite.
	Selected bool `json:"selected"`
}

// Function is an application function a pick adds.
type Function struct {
	// Function is the normalised function name, e.g.
	// "example.com/m/storage.(*Table).AddRows".
	Function string `json:"function"`
	// Package is the function's package path; empty for a symbol with
	// none (assembly, C).
	Package string `json:"package"`
	// Project reports whether Package is in a project module.
	Project bool `json:"project"`
	// FlatSeconds is the function's flat time in the application, in
	// seconds.
	FlatSeconds float64 `json:"flat_seconds"`
	// AttributedSeconds is the function's attributed time in the
	// application, in seconds (0 for an external function).
	AttributedSeconds float64 `json:"attributed_seconds"`
}

// Pick is one step of the minimal suite.
type Pick struct {
	// ID is the picked benchmark's id (see [Benchmark]).
	ID string `json:"id"`
	// Added counts the criterion's nodes the pick newly covers.
	Added int `json:"added"`
	// AddedProject counts the project nodes the pick newly covers.
	AddedProject int `json:"added_project"`
	// AddedOverall counts all nodes the pick newly covers.
	AddedOverall int `json:"added_overall"`
	// ImpactSeconds is the benchmark's own reference impact in seconds,
	// as in [Benchmark].
	ImpactSeconds float64 `json:"impact_seconds"`
	// ImpactShare is ImpactSeconds over the application's total, in
	// [0, 1].
	ImpactShare float64 `json:"impact_share"`
	// AddedImpactSeconds is the application flat time of the nodes the
	// pick newly covers, in seconds.
	AddedImpactSeconds float64 `json:"added_impact_seconds"`
	// CumulativeProjectRatio is the project-only coverage of this and all
	// earlier picks, in [0, 1]; it never decreases along the suite.
	CumulativeProjectRatio float64 `json:"cumulative_project_ratio"`
	// CumulativeOverallRatio is the overall coverage of this and all
	// earlier picks, in [0, 1].
	CumulativeOverallRatio float64 `json:"cumulative_overall_ratio"`
	// CumulativeImpact is the application flat time covered by this and
	// all earlier picks, in seconds (the sum of AddedImpactSeconds so
	// far).
	CumulativeImpact float64 `json:"cumulative_impact_seconds"`
	// AttributedImpactSeconds is the benchmark's own attributed impact in
	// seconds, as in [Benchmark].
	AttributedImpactSeconds float64 `json:"attributed_impact_seconds"`
	// AttributedImpactShare is AttributedImpactSeconds over the
	// application's total, in [0, 1].
	AttributedImpactShare float64 `json:"attributed_impact_share"`
	// AddedAttributedImpactSeconds is the attributed time of the project
	// nodes the pick newly covers, in seconds.
	AddedAttributedImpactSeconds float64 `json:"added_attributed_impact_seconds"`
	// CumulativeAttributedImpact is the attributed time covered by this
	// and all earlier picks, in seconds (the sum of
	// AddedAttributedImpactSeconds so far).
	CumulativeAttributedImpact float64 `json:"cumulative_attributed_impact_seconds"`
	// Functions are the application functions the pick newly covers,
	// by FlatSeconds descending, then name.
	Functions []Function `json:"functions"`
	// Marginal reports that the application time the pick newly covers
	// (AddedAttributedImpactSeconds, or AddedImpactSeconds when Impact is
	// "flat") is under 1% of the application's (optimize.MarginalShare):
	// it keeps the suite's coverage through functions that barely run.
	// The pick stays in the suite.
	Marginal bool `json:"marginal"`
}

// Recommendation is one recommended function.
type Recommendation struct {
	// Function is the recommended (uncovered, project) function's
	// normalised name.
	Function string `json:"function"`
	// Package is its package path.
	Package string `json:"package"`
	// Distance is the shortest call distance from a root of the
	// application graph (a function without callers), -1 if none
	// reaches it.
	Distance int `json:"root_distance"`
	// AddedProject counts the uncovered project nodes a benchmark of
	// Function would cover (those it reaches, itself included).
	AddedProject int `json:"added_project"`
	// AddedExternal counts the uncovered external nodes it would cover.
	AddedExternal int `json:"added_external"`
	// ImpactSeconds is the application flat time of those nodes, in
	// seconds.
	ImpactSeconds float64 `json:"impact_seconds"`
	// ImpactShare is ImpactSeconds over the application's total, in
	// [0, 1].
	ImpactShare float64 `json:"impact_share"`
	// CumulativeProjectRatio is the project-only coverage of the whole
	// suite plus this and all earlier recommendations, in [0, 1].
	CumulativeProjectRatio float64 `json:"cumulative_project_ratio"`
	// CumulativeOverallRatio is the same for all nodes.
	CumulativeOverallRatio float64 `json:"cumulative_overall_ratio"`
	// Functions are the application functions the recommendation newly
	// covers, by FlatSeconds descending, then name.
	Functions []Function `json:"functions"`
	// AttributedImpactSeconds is the attributed time of the project
	// nodes the recommendation would cover, in seconds.
	AttributedImpactSeconds float64 `json:"attributed_impact_seconds"`
	// AttributedImpactShare is AttributedImpactSeconds over the
	// application's total, in [0, 1].
	AttributedImpactShare float64 `json:"attributed_impact_share"`
	// Negligible says why the function is negligible: too small and too
	// rarely run for a maintainer to benchmark; absent when it is not.
	Negligible *Negligible `json:"negligible,omitempty"`
	// MaybeCoveredBy names the thin benchmarks (see ThinBenchmarks) that
	// may have run the function without a sample, so it may not be
	// uncovered at all; only with the paper's targets (callable targets
	// never recommend such a function).
	MaybeCoveredBy []string `json:"maybe_covered_by,omitempty"`

	// The fields below are present only with callable targets (see
	// Document.RecommendationTargets); the paper's targets keep the
	// earlier fields alone.

	// Closures are the closures folded into the function, by name: a
	// benchmark reaches them by calling what the function returns or
	// starts.
	Closures []string `json:"closures,omitempty"`
	// Dir is the package's directory relative to the module root ("." for
	// the root), from a collection manifest or else from the module path;
	// absent when the package lies in no project module.
	Dir string `json:"dir,omitempty"`
	// File is the file of the function's declaration: relative to the
	// module root ("httpapi/server.go") when Dir is known, else as the
	// application profile records it (the build machine's path); absent
	// when the profile does not say.
	File string `json:"file,omitempty"`
	// Line is the declaration's line in File; absent when unknown.
	Line int `json:"line,omitempty"`
	// Exported reports that a benchmark in an external test package
	// (package x_test) can call the function; false means an internal
	// test (package x).
	Exported *bool `json:"exported,omitempty"`
	// Callers are the application's direct callers of the function (and
	// of its closures), at most three, by cumulative time: how the
	// application uses it, a hint for realistic inputs.
	Callers []Caller `json:"callers,omitempty"`
	// Hottest are the project functions beneath the function that its
	// benchmark would newly cover, at most three, by flat time.
	Hottest []Function `json:"hottest,omitempty"`
}

// Negligible says why a recommended function is negligible (package
// recommend, "Negligible candidates"): its own application time is under
// 0.2% of the application's (recommend.NegligibleShare) and it is small.
type Negligible struct {
	// Share is the function's own application time (its cumulative time,
	// with its closures') over the application's total, in [0, 1].
	Share float64 `json:"share"`
	// Inlined reports that the compiler inlined it wherever the
	// application profile saw it, into callers a benchmark covers.
	Inlined bool `json:"inlined"`
	// Lines is its declaration's size in lines; absent when unknown.
	Lines int `json:"lines,omitempty"`
	// LinesFrom says where Lines comes from: "source" (exact) or
	// "profile" (an upper bound: up to the next function the profile
	// records in the same file); absent when unknown.
	LinesFrom string `json:"lines_from,omitempty"`
}

// ThinBenchmark is a benchmark whose CPU profile took fewer samples than
// the 100 a coverage set needs (analysis.MinBenchmarkSamples): functions
// it ran briefly may be missing from it.
type ThinBenchmark struct {
	// ID is the benchmark's id (see [Benchmark]).
	ID string `json:"id"`
	// Profile is the path of its profile.
	Profile string `json:"profile"`
	// Samples is the number of samples the profiler took, its CPU time
	// in hundredths of a second.
	Samples int64 `json:"samples"`
	// WallSeconds is the wall-clock time its profile covers; 0 when the
	// profile does not record it. Far more than the CPU time means the
	// benchmark mostly waits (fsync, sleep, locks).
	WallSeconds float64 `json:"wall_seconds"`
	// BenchTime is the collection's benchtime (from its manifest);
	// absent when unknown.
	BenchTime string `json:"benchtime,omitempty"`
	// LongerBenchTime is the benchtime that would give it about 100
	// samples (mbopt profile --benchtime), from BenchTime or go test's
	// default 1s.
	LongerBenchTime string `json:"longer_benchtime"`
	// Hidden names the project functions no benchmark is seen to cover
	// that it may have run without a sample: those the application's call
	// graph reaches from a project function its profile covers (see
	// analysis.ThinBenchmark), by name.
	Hidden []string `json:"hidden"`
}

// Caller is an application function that calls a recommended one.
type Caller struct {
	// Function is the caller's normalised name.
	Function string `json:"function"`
	// Package is its package path.
	Package string `json:"package"`
	// Project reports whether it is a project function.
	Project bool `json:"project"`
	// CumSeconds is the caller's cumulative application time.
	CumSeconds float64 `json:"cum_seconds"`
}

// Skipped is a benchmark profile left out of the analysis.
type Skipped struct {
	// File is the path of the unusable profile (or the manifest entry's
	// profile path).
	File string `json:"file"`
	// ID is the benchmark's id when a collection manifest names it;
	// omitted otherwise.
	ID string `json:"id,omitempty"`
	// Reason says why it was skipped, e.g. "empty file (...)" or the
	// manifest's status and error.
	Reason string `json:"reason"`
}

// sourceNoun names what the benchmarks' files are: "function sets",
// "instruction profiles" or "CPU profiles".
func (d *Document) sourceNoun() string {
	switch d.Source {
	case string(manifest.SourceCover):
		return "function sets"
	case string(manifest.SourceInstructions):
		return "instruction profiles"
	}
	return "CPU profiles"
}

// scopeText says what the benchmarks' files are and what part of each
// benchmark's run they count: the text of [Document.scopeNote].
func (d *Document) scopeText() string {
	noun := d.sourceNoun()
	weights := ""
	if d.Source == string(manifest.SourceInstructions) {
		weights = " Weights are instructions counted under Valgrind, not CPU seconds."
	}
	switch {
	case d.Scope == string(manifest.ScopeTimed):
		return noun + " of scope timed: each benchmark's timed loop only (what grows with b.N); the setup before b.ResetTimer, the validation after b.StopTimer and a function that runs a constant number of times per benchmark are not counted." + weights
	case d.Source == "":
		return "CPU profiles of whole runs, as the papers count: setup and validation outside the timer count too, and sampling may miss a function a benchmark ran briefly."
	}
	return noun + " of whole runs (scope all), as the papers count: setup and validation outside the timer count too." + weights
}
