package compare

import (
	"encoding/json"
	"time"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
)

// SchemaVersion is the version of the JSON form of a [Report] (what mbopt
// compare --format json writes; the field meanings are on Report and the
// types it holds). It changes only when a field changes meaning or
// disappears; new fields, and new [Status] values (such as Skipped), may
// appear without a change.
const SchemaVersion = 1

// A Status says whether a benchmark could be compared.
type Status string

// The statuses of a [Result].
const (
	// Compared: both versions ran; the result has an estimate.
	Compared Status = "compared"
	// Added: the benchmark exists only in the head.
	Added Status = "added"
	// Removed: the benchmark exists only in the base.
	Removed Status = "removed"
	// BuildFailed: the benchmark's package did not build in a version
	// (Result.Side says which, Result.Error says why).
	BuildFailed Status = "build-failed"
	// Failed: the benchmark failed, crashed or timed out in a version.
	Failed Status = "failed"
	// Skipped: the benchmark skipped itself (b.Skip, b.Skipf, b.SkipNow)
	// in a version, such as for test data it did not find: it ran and
	// gave no result by its own choice. Result.Side says which version,
	// Result.Error holds what it logged. No gate fails on it.
	Skipped Status = "skipped"
)

// Statuses lists the statuses in the order reports count them: Compared
// first, then the statuses of a benchmark that gave no comparison.
var Statuses = []Status{Compared, Added, Removed, BuildFailed, Failed, Skipped}

// SideBoth is the [Result.Side] of a benchmark that failed, did not build,
// or skipped itself, in both versions.
const SideBoth = "both"

// A Result is the comparison of one benchmark in one unit.
type Result struct {
	// ID is the benchmark id: package import path + "." + full name
	// (see package benchname).
	ID string `json:"id"`
	// Package is the import path of the benchmark's package.
	Package string `json:"package"`
	// Name is the full benchmark name, sub-benchmarks included.
	Name string `json:"name"`
	// Unit is the unit of the measurements, such as "sec/op", "B/op".
	Unit string `json:"unit"`
	// Status says whether the benchmark could be compared.
	Status Status `json:"status"`
	// Side is the version a BuildFailed, Failed or Skipped status refers
	// to: "base" or "head" ([Side.String]), or [SideBoth] when it was so
	// in each version (Error then gives both reasons, the base's first,
	// or the one when they are the same).
	Side string `json:"side,omitempty"`
	// Error is the reason for a BuildFailed or Failed status, or what a
	// Skipped benchmark logged.
	Error string `json:"error,omitempty"`
	// Estimate is the relative change (a fraction: 0.12 is 12%), its
	// confidence interval, the medians and the number of measurements
	// (Status Compared only).
	Estimate *benchstats.Estimate `json:"estimate,omitempty"`
	// Instability is the width of the interval (Estimate.CI), a
	// fraction: the larger, the larger a change must be to be seen.
	Instability float64 `json:"instability,omitempty"`
	// Verdict classifies the estimate against the threshold; in JSON its
	// stable name, such as "definite-regression" ([benchstats.Verdict]).
	// Only a Compared result has one: the JSON of the other statuses
	// (added, removed, build-failed, failed, skipped) has no "verdict", and their
	// Verdict is the zero value, which is no claim ([Result.MarshalJSON]).
	Verdict benchstats.Verdict `json:"verdict"`
	// PValue is the Mann-Whitney U-test's p-value (a second opinion).
	PValue float64 `json:"p_value,omitempty"`
	// Trials is the number of trials that measured the benchmark; with
	// UntilStable it may be fewer than Settings.Trials.
	Trials int `json:"trials,omitempty"`
	// Untouched is set when the comparison knew which functions the
	// change touched (Options.Relevance.Affected) and this benchmark covers none of
	// them: a detection here is likely noise. The gate still counts it.
	Untouched bool `json:"untouched,omitempty"`
	// Impact is what the benchmark means for the application (see
	// [callgraph.Impact]: shares of the application's CPU time, or of
	// its unit, such as instructions, when its profile is not a CPU
	// profile), when the comparison was given an analysis; omitted
	// otherwise.
	Impact *callgraph.Impact `json:"impact,omitempty"`
	// Threshold is the threshold the verdict applied (Status Compared
	// with an estimate): the largest of Settings.Threshold, the
	// benchmark's calibrated threshold ([Reclassify]) or else its dynamic
	// one (75% of the interval's width), and its minimum detectable
	// effect. See benchstats.Judge.
	Threshold float64 `json:"threshold,omitempty"`
	// ThresholdBasis says which of those Threshold is.
	ThresholdBasis benchstats.Basis `json:"threshold_basis,omitempty"`
	// MinDetectableEffect is the smallest relative change this
	// comparison could have told from no change, given the measured noise
	// and repetitions (benchstats.Estimate.MinDetectableEffect): "no
	// change" means no change larger than this or Threshold. Set for
	// Status Compared with an estimate.
	MinDetectableEffect *float64 `json:"min_detectable_effect,omitempty"`
	// PAdjusted is the estimate's bootstrap p-value adjusted for the
	// comparison's false discovery rate (Benjamini–Hochberg); the result
	// is significant when it is at most Settings.FDR.
	PAdjusted float64 `json:"p_adjusted,omitempty"`
	// TooFew is set when a version has fewer measurements than a verdict
	// needs at Settings.Confidence (benchstats.MinSamples: 8 at 99%): the
	// verdict is then unchanged and no gate fails on it.
	TooFew bool `json:"too_few,omitempty"`
	// Caveats say why the result deserves less trust, sorted: with the
	// instructions metric, "less stable: starts goroutines" (or "uses
	// b.RunParallel", "uses math/rand/v2's global functions") and the
	// collector started by the GOMEMLIMIT guard; with the cpu metric, a
	// benchmark whose time is not CPU time.
	Caveats []string `json:"caveats,omitempty"`
	// Culprits are the functions where the change happened, for a
	// definite or potential change in the comparison's metric and for a
	// benchmark Options.Explain names: the functions whose per-operation
	// value changed beyond their own noise between the versions'
	// per-function profiles (culprit.Explain; with the instructions
	// metric one per measurement of the comparison, Cachegrind's counts
	// credited by source line to the function whose body encloses it, so
	// an inlined helper gets its own work; with time and cpu
	// [CPUProfiles] CPU profiles per version, credited to the innermost
	// frame, inlined ones included), ranked by the size of their change
	// whatever its sign, at most [MaxCulprits]. Each one's
	// in_application says whether the application runs the function
	// (Options.Relevance.Application).
	Culprits []culprit.Culprit `json:"culprits,omitempty"`
	// Explained says how the culprits were found: from how many
	// profiles, and how many functions moved only within their noise.
	// Set for every explained result, with culprits or none.
	Explained *Explained `json:"explained,omitempty"`
	// Profiles names the two profiles the culprits come from, written
	// into the output directory's [CulpritDir].
	Profiles *Profiles `json:"profiles,omitempty"`
	// AppImpact is the estimated effect of the change on the
	// application (culprit.Explain), for an explained result when the
	// comparison knows the application's reference profile (Options.Relevance.Application).
	// In JSON its fields are the result's own: app_impact (the estimated
	// relative change of the application's CPU time), app_impact_low and
	// app_impact_high (its interval, from the same hierarchical
	// resampling as the benchmark's estimate), app_impact_basis (what it
	// was made from: "functions", "benchmark" or "none"),
	// app_relevant_share (the part of the movement in functions the
	// application runs), app_benchmark_share and app_unattributed_share,
	// and likely_no_app_impact (the change lies outside the application's
	// functions: the study's false-alarm class, which the gate app-impact
	// ignores).
	*culprit.AppImpact
}

// MarshalJSON writes r with the JSON field names of its fields, leaving
// out "verdict" unless Status is Compared: a benchmark that was not
// compared was not judged, and "unchanged" would claim it was.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result // without this method
	if r.Status == Compared {
		return json.Marshal(plain(r))
	}
	return json.Marshal(struct {
		plain
		Verdict *benchstats.Verdict `json:"verdict,omitempty"` // hides plain's
	}{plain: plain(r)})
}

// FalseAlarms is the false-discovery-rate correction of one comparison:
// Benjamini–Hochberg at Settings.FDR over the bootstrap p-values of every
// compared result with enough measurements (benchstats.BenjaminiHochberg);
// only a significant result can be definite.
type FalseAlarms struct {
	// FDR is the false discovery rate controlled.
	FDR float64 `json:"fdr"`
	// Tests counts the results the correction covered: those with the
	// measurements a verdict needs, but not those whose estimate is
	// Constant (a unit that did not move and has no noise is no test).
	Tests int `json:"tests"`
	// Significant counts those that passed it.
	Significant int `json:"significant"`
	// Definite counts the definite changes.
	Definite int `json:"definite"`
	// Expected is the expected number of false alarms among them
	// (benchstats.ExpectedFalseAlarms).
	Expected float64 `json:"expected"`
	// Uncorrected is the number of false alarms expected without the
	// correction: Tests × (1 − Confidence).
	Uncorrected float64 `json:"uncorrected"`
}

// A Report is the outcome of a comparison, and its JSON form is what mbopt
// compare --format json writes (schema [SchemaVersion]). In JSON, shares
// and changes are fractions (0.12 is 12%) and durations are integer
// nanoseconds; a field marked omitempty is left out when empty.
type Report struct {
	// Schema is SchemaVersion.
	Schema int `json:"schema"`
	// Module is the module path of the compared module.
	Module string `json:"module"`
	// Base is the version compared against.
	Base Revision `json:"base"`
	// Head is the version under test.
	Head Revision `json:"head"`
	// Settings are the parameters used.
	Settings Settings `json:"settings"`
	// Results are sorted by the documented rule: detections first, by
	// impact.
	Results []Result `json:"results"`
	// Raw names the raw result files (Go benchmark format) of each
	// version, keyed "base" and "head", relative to the output directory.
	Raw map[string]string `json:"raw,omitempty"`
	// Out is the output directory, absolute, that holds the raw files
	// (Options.Out, or by default a directory of this comparison's own
	// under .mbopt/compare).
	Out string `json:"out,omitempty"`
	// Wall is the wall-clock time of the comparison (wall_ns in JSON).
	Wall time.Duration `json:"wall_ns"`
	// Saved is the time UntilStable saved, estimated from the measured
	// time per run of the benchmarks it stopped.
	Saved time.Duration `json:"saved_ns,omitempty"`
	// FalseAlarms is the false-discovery-rate correction of the verdicts.
	FalseAlarms *FalseAlarms `json:"false_alarms,omitempty"`
	// Notes are plain-language remarks for the user, such as how the
	// default base was chosen or what a budget changed.
	Notes []string `json:"notes,omitempty"`
	// GoVersion is the Go toolchain that built the head's test binaries
	// (go env GOVERSION in its checkout).
	GoVersion string `json:"go_version,omitempty"`
	// AppMeasured is the application workload itself measured on both
	// versions (Options.Confirm), when some result's estimated
	// application impact passed Settings.AppImpactThreshold; omitted
	// otherwise.
	AppMeasured *AppMeasurement `json:"app_measured,omitempty"`
}

// An AppMeasurement is the application workload measured on both
// versions with the comparison's metric and schedule, interleaved like
// the benchmarks: the application's change, which confirms (or refutes)
// the results' estimated application impact.
type AppMeasurement struct {
	// Source names what was measured: "benchmark " and the benchmark's
	// id (Options.Confirm.Benchmark), or "command " and the command
	// (Options.Confirm.Command).
	Source string `json:"source"`
	// Unit is the unit of the measurements, such as "instructions/op" for
	// a benchmark or "instructions" for a command's whole run.
	Unit string `json:"unit"`
	// Estimate is the measured relative change with its confidence
	// interval, as a benchmark result's.
	Estimate benchstats.Estimate `json:"estimate"`
}
