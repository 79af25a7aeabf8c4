package compare

import (
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/shard"
)

// Options configure [Run]. The fields are grouped by concern: all but the
// last group become the plan package engine runs (engine.Plan: Run turns
// AA into a Base and OnlyAffected into Benchmarks first); the last group
// are the inputs of the steps after the verdicts.
type Options struct {
	// The revisions: which two versions of the module, in which repository.

	// Dir is a directory in the module to compare, inside a git work
	// tree; "" means the current directory.
	Dir string
	// Base is the base revision (any git revision). "" means the
	// merge-base of HEAD with the default branch (origin/HEAD, else main,
	// else master); a Report.Notes line says which.
	Base string
	// Head is the head revision; "" means HEAD, and [Worktree] the work
	// tree with its uncommitted changes.
	Head string
	// AA makes the comparison an A/A comparison: Head against itself,
	// whose results measure how unstable each benchmark is rather than a
	// change (package history calibrates thresholds from them). Base must
	// be empty, and Head a commit, not Worktree.
	AA bool

	// The selection: which benchmarks.

	// Benchmarks are the benchmarks to compare, such as the optimized
	// suite. When empty, Bench and Packages choose them.
	Benchmarks []Benchmark
	// Bench is a go test -bench pattern: every benchmark it selects in
	// Packages, in either revision, is compared. "" means all.
	Bench string
	// Packages are package patterns for Bench, relative to the module
	// root; nil means "./...".
	Packages []string
	// OnlyAffected compares only the Benchmarks that Relevance.Affected
	// marks.
	OnlyAffected bool

	// The schedule and the statistics.

	// Settings are the schedule and the statistics; zero fields take the
	// values of [DefaultSettings].
	Settings Settings

	// The build.

	// BuildFlags are extra go test -c flags, such as "-tags", "x".
	BuildFlags []string
	// HeadFiles replaces files of the head's module in its build only
	// (go build -overlay): module-relative slash paths to their new
	// content. The repository and the head's commit are untouched; the
	// head is then never taken for the base's build (no A/A sharing of
	// worktree and binaries) and its binaries are not cached. mbopt
	// mutate sets it to slow a function down (package compare/mutate).
	HeadFiles map[string][]byte
	// Env holds extra environment variables ("KEY=value") for the go
	// command and the test binaries.
	Env []string
	// GoCmd is the go command; "" means "go".
	GoCmd string
	// Timeout bounds each test binary process; 0 means 10 minutes or,
	// when longer, ten times the expected time of the process.
	Timeout time.Duration
	// CacheDir holds test binaries built from commits, reused while the
	// commit, package, Go version, build flags and environment are the
	// same; "" means the "mbopt/testbin" directory under
	// os.UserCacheDir, and "off" disables the cache. Binaries of a dirty
	// worktree are never cached.
	CacheDir string

	// The shard: this machine's part of a comparison run on several.

	// Shard, when enabled, runs only shard Shard.Index of Shard.Count
	// of the benchmarks (all their trials, both versions on this machine),
	// chosen by package shard's longest-first partition over ShardCosts,
	// and writes a [ShardRecord] next to the raw files; [Merge] combines
	// the shards' outputs.
	Shard shard.Spec
	// TrialShard, when enabled, runs every benchmark but only the trials
	// t (from 1) with (t − 1) mod TrialShard.Count == TrialShard.Index,
	// so each machine is one of the study's instance runs; [Merge]
	// combines them. Settings.Trials counts the trials of all machines.
	TrialShard shard.Spec
	// ShardCosts are the benchmarks' costs (top-level id → seconds) that
	// balance Shard; nil balances by count. Every shard must get the same.
	ShardCosts map[string]float64

	// The output.

	// Out is the output directory of the raw result files; "" means a
	// directory of the comparison's own under .mbopt/compare in the module
	// root, named by the start time (UTC) and the two short commits, so
	// earlier comparisons' files are kept. Report.Out names it.
	Out string
	// Progress, when set, is called with each step, from one goroutine
	// at a time.
	Progress func(Event)

	// The steps after the verdicts, on the kept test binaries, and what the
	// relevance half knows that they take.

	// Explain names benchmarks (full names, or ids) that get culprit
	// functions (Result.Culprits) whatever their verdict; the definite
	// and potential changes get them anyway.
	Explain []string
	// Confirm, when enabled, measures the application workload on both
	// versions when some result's estimated application impact passes
	// Settings.AppImpactThreshold (Report.AppMeasured; see [Confirm]).
	// It needs Relevance.Application.
	Confirm Confirm
	// Relevance is what the relevance half knows of the benchmarks and
	// the application, which the steps after the measurements take; the
	// zero value knows nothing.
	Relevance Relevance
}

// The fields of [Options] (and [GateError]) that input errors name
// (mbopt.Field paths).
const (
	FieldAA               mbopt.Field = "AA"
	FieldBase             mbopt.Field = "Base"
	FieldBench            mbopt.Field = "Bench"
	FieldConfirm          mbopt.Field = "Confirm"
	FieldConfirmBenchmark mbopt.Field = "Confirm.Benchmark"
	FieldConfirmCommand   mbopt.Field = "Confirm.Command"
	FieldExplain          mbopt.Field = "Explain"
	// FieldFailOn is the gate a [GateError] failed: the caller's setting
	// (such as flow.CompareConfig.FailOn) that chose it.
	FieldFailOn                     mbopt.Field = "FailOn"
	FieldHead                       mbopt.Field = "Head"
	FieldOnlyAffected               mbopt.Field = "OnlyAffected"
	FieldRelevanceApplication       mbopt.Field = "Relevance.Application"
	FieldSettingsAppImpactThreshold mbopt.Field = "Settings.AppImpactThreshold"
	FieldSettingsBenchTime          mbopt.Field = "Settings.BenchTime"
	FieldSettingsBudget             mbopt.Field = "Settings.Budget"
	FieldSettingsConfidence         mbopt.Field = "Settings.Confidence"
	FieldSettingsCount              mbopt.Field = "Settings.Count"
	FieldSettingsDuet               mbopt.Field = "Settings.Duet"
	FieldSettingsFDR                mbopt.Field = "Settings.FDR"
	FieldSettingsJobs               mbopt.Field = "Settings.Jobs"
	FieldSettingsMetric             mbopt.Field = "Settings.Metric"
	FieldSettingsResamples          mbopt.Field = "Settings.Resamples"
	FieldSettingsRuns               mbopt.Field = "Settings.Runs"
	FieldSettingsTargetMDE          mbopt.Field = "Settings.TargetMDE"
	FieldSettingsThreshold          mbopt.Field = "Settings.Threshold"
	FieldSettingsTrials             mbopt.Field = "Settings.Trials"
	FieldSettingsUntilStable        mbopt.Field = "Settings.UntilStable"
)

// Relevance is what the relevance half knows of a comparison's benchmarks
// and of the application (package relevance/analysis computes it from
// profiles), which the steps after the measurements take: the verdicts'
// order ([Judge], [Analyze]), the untouched marks, the culprits'
// application impact and its confirmation ([Run]). The zero value knows
// nothing.
type Relevance struct {
	// Impacts maps benchmark ids to their reference impact, which ranks
	// the results ([SortResults]); may be nil.
	Impacts map[string]callgraph.Impact
	// Affected, when not nil, says which benchmarks (top-level id:
	// package + "." + name) cover a function the change touched; a result
	// of any other benchmark is marked Untouched, and its detections are
	// likely noise. nil means unknown. Options.OnlyAffected compares only
	// those it marks.
	Affected map[string]bool
	// Application is the application's reference profile (each function's
	// share of the application's CPU time, and its split by caller); nil
	// when unknown. With it, a result with culprits gets its application
	// impact (Result.AppImpact, see package culprit), and Options.Confirm
	// can confirm it.
	Application *callgraph.Application
}
