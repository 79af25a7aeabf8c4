package compare

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/relevance/measure"
)

// Settings are the parameters of one comparison: the RMIT schedule and
// the statistics.
type Settings struct {
	// Trials is the number of trials (the study's instance runs, 3);
	// Trials × Runs × Count measurements are taken per benchmark and
	// version.
	Trials int `json:"trials"`
	// Runs is the number of suite runs per trial (3).
	Runs int `json:"runs"`
	// Count is the number of measurements of a benchmark per run
	// (-test.count, 5).
	Count int `json:"count"`
	// BenchTime is the -test.benchtime of each measurement, such as "1s"
	// or "100x".
	BenchTime string `json:"benchtime"`
	// Benchmem adds B/op and allocs/op.
	Benchmem bool `json:"benchmem,omitempty"`
	// Seed seeds the schedule and the bootstrap.
	Seed uint64 `json:"seed"`
	// Threshold is the relative change below which nothing is a change
	// (0.01 is 1%).
	Threshold float64 `json:"threshold"`
	// Confidence is the confidence level of the intervals (0.99).
	Confidence float64 `json:"confidence"`
	// Resamples is the number of bootstrap resamples.
	Resamples int `json:"resamples"`
	// UntilStable, when positive, stops scheduling a benchmark once both
	// versions have at least 2 trials and its interval is narrower than
	// this width.
	UntilStable float64 `json:"until_stable,omitempty"`
	// TargetMDE is the minimum detectable effect a counting metric
	// measures each benchmark to: a benchmark stops once its results
	// reach it with the measurements a verdict needs in both versions (2
	// trials or more), and one still above it after Trials gets more
	// trials, up to engine.ExtraTrialsFactor × Trials and within Budget
	// (a schedule planned with fewer measurements than a verdict needs is
	// not extended). 0 means DefaultTargetMDE with the instructions
	// metric and none with the others; a negative value turns it off.
	TargetMDE float64 `json:"target_mde,omitempty"`
	// Jobs is how many instructions measurements run at the same time,
	// each in its own processes; 0 means one per CPU. Counting
	// instructions does not depend on the machine's load; the time and
	// cpu metrics keep their interleaved order whatever Jobs says.
	Jobs int `json:"jobs,omitempty"`
	// Budget, when positive, is the wall-clock budget the schedule was
	// fitted into (nanoseconds in JSON; omitted when none); the trials
	// TargetMDE adds stop when it is spent.
	Budget time.Duration `json:"budget,omitempty"`
	// FDR is the false discovery rate the verdicts control over all the
	// comparison's estimates (0.05): see [FalseAlarms].
	FDR float64 `json:"fdr,omitempty"`
	// Metric is what is measured per operation: measure.Time, the
	// benchmark's own ns/op; measure.CPU, the CPU time of its process;
	// measure.Instructions, instructions counted under Valgrind (see
	// package measure). Zero, in the Options of [Run], is
	// measure.DefaultMetric(): instructions where Valgrind is installed,
	// else time (time with DuetParallel). A [Report] records time as "" (as every report did
	// before there were other metrics), and [Analyze] and [Judge] read ""
	// as time: they judge results already measured. With CPU and Instructions each of Count
	// measurements per run is a pair of processes (two iteration
	// counts), Count defaults to 1, BenchTime (default 100ms) is the
	// benchtime of the normal run that measures B/op and allocs/op (with
	// Instructions, the first measurement's only: each Valgrind process
	// measures its own), which are always compared, and Benchmem is set.
	Metric measure.Metric `json:"metric,omitempty"`
	// Duet says how the time metric runs a benchmark's two versions in a
	// run: DuetSequential ("" too), one after the other, or DuetParallel,
	// at the same time, each process bound to a CPU of its own with
	// GOMAXPROCS=1 (the CPUs alternate between the versions from run to
	// run), so both see the same interference (Bulej et al., "Duet
	// Benchmarking", 2020); sequential where fewer than 2 CPUs are
	// available. The counting metrics always run the versions at the same
	// time where there are 2 CPUs, unbound: a count does not depend on the
	// neighbours; DuetParallel with them is an error.
	Duet string `json:"duet,omitempty"`
	// AppImpactThreshold is the estimated application impact
	// (Result.AppImpact) below which the gate FailOnAppImpact passes a
	// definite regression (0.001: 0.1% of the application's CPU time);
	// omitted when 0, which passes only the regressions marked likely no
	// application impact. Otherwise it must be less than 1 (100%).
	AppImpactThreshold float64 `json:"app_impact_threshold,omitempty"`
}

// The values of Settings.Duet.
const (
	DuetSequential = engine.DuetSequential
	DuetParallel   = engine.DuetParallel
)

// The defaults of [Settings]: the study's schedule and statistics.
const (
	DefaultTrials    = 3
	DefaultRuns      = 3
	DefaultCount     = 5
	DefaultBenchTime = "1s"
	DefaultThreshold = 0.01
	DefaultFDR       = 0.05
	// DefaultTargetMDE is the TargetMDE of the instructions metric
	// (0.1%): a count restricted to the benchmark varies by about
	// 0.01% between processes, and the default schedule of 9
	// measurements per version reaches 0.1% on deterministic code.
	DefaultTargetMDE = 0.001
	// DefaultAppImpactThreshold is the AppImpactThreshold of a gate or
	// confirmation that needs one and was given none (0.1%); a zero
	// AppImpactThreshold itself means 0.
	DefaultAppImpactThreshold = 0.001
)

// DefaultSettings returns the study's settings: 3 trials × 3 runs × count
// 5 at -benchtime 1s, a 1% threshold, 99% intervals from 10,000
// resamples, seed 1; and a false discovery rate of 5%.
func DefaultSettings() Settings {
	return Settings{Trials: DefaultTrials, Runs: DefaultRuns, Count: DefaultCount, BenchTime: DefaultBenchTime,
		Seed: 1, Threshold: DefaultThreshold, Confidence: benchstats.DefaultConfidence, Resamples: benchstats.DefaultResamples,
		FDR: DefaultFDR}
}

// The defaults of [Settings] with the CPU and instructions metrics, which
// count two iteration counts per measurement.
const (
	// CountedCount is their default Count.
	CountedCount = 1
	// CountedBenchTime is their default BenchTime: the benchtime of the
	// normal run that measures allocations.
	CountedBenchTime = "100ms"
)

// RunMetric returns the metric [Run] measures with s: Metric, or where
// that is zero measure.DefaultMetric() (time with DuetParallel, which
// only time has). It is never "".
func (s Settings) RunMetric() measure.Metric {
	switch {
	case s.Metric != "":
		return s.Metric
	case s.Duet == DuetParallel:
		return measure.Time
	}
	return measure.DefaultMetric()
}

// forRun returns s with its Metric settled for a run ([Settings.RunMetric])
// as the report records it: time is "".
func (s Settings) forRun() Settings {
	s.Metric = recorded(s.RunMetric())
	return s
}

// recorded returns metric m as a report records it: "" for measure.Time.
func recorded(m measure.Metric) measure.Metric {
	if m == measure.Time {
		return ""
	}
	return m
}

// withDefaults fills the zero fields of s with DefaultSettings.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	if s.counting() {
		s.Count = cmp.Or(s.Count, CountedCount)
		s.BenchTime = cmp.Or(s.BenchTime, CountedBenchTime)
		s.Benchmem = true
	}
	if s.TargetMDE == 0 && s.Metric == measure.Instructions {
		s.TargetMDE = DefaultTargetMDE
	}
	s.Trials = cmp.Or(s.Trials, d.Trials)
	s.Runs = cmp.Or(s.Runs, d.Runs)
	s.Count = cmp.Or(s.Count, d.Count)
	s.BenchTime = cmp.Or(s.BenchTime, d.BenchTime)
	s.Threshold = cmp.Or(s.Threshold, d.Threshold)
	s.Confidence = cmp.Or(s.Confidence, d.Confidence)
	s.Resamples = cmp.Or(s.Resamples, d.Resamples)
	s.FDR = cmp.Or(s.FDR, d.FDR)
	return s
}

// Check reports whether s is valid, its zero fields taken as the defaults
// of a run ([DefaultSettings]; the Metric of this machine, and a counting
// metric's own count and bench time): an
// [*mbopt.Error] naming the field and its range, as [Run] returns before
// anything runs. Callers that do work before Run call it first.
func (s Settings) Check() error { return s.forRun().withDefaults().check() }

// check validates s (after withDefaults).
func (s Settings) check() error {
	switch {
	case s.Trials < 1:
		return FieldSettingsTrials.Errorf("Trials is %d; it must be at least 1 (2 or more for an interval that sees trial-to-trial noise)", s.Trials)
	case s.Runs < 1:
		return FieldSettingsRuns.Errorf("Runs is %d; it must be at least 1", s.Runs)
	case s.Count < 1:
		return FieldSettingsCount.Errorf("Count is %d; it must be at least 1", s.Count)
	case !(s.Threshold >= 0 && s.Threshold < 1): // NaN too
		return FieldSettingsThreshold.Errorf("Threshold is %v; it must be a fraction in [0, 1), such as 0.01 for 1%%", s.Threshold)
	case !(s.Confidence > 0 && s.Confidence < 1):
		return FieldSettingsConfidence.Errorf("Confidence is %v; it must be in (0, 1), such as 0.99", s.Confidence)
	case s.Metric != "" && !slices.Contains(measure.Metrics, s.Metric):
		_, err := measure.ParseMetric(string(s.Metric))
		return FieldSettingsMetric.Errorf("%w", err)
	case s.Duet != "" && s.Duet != DuetSequential && s.Duet != DuetParallel:
		return mbopt.Errorf("%s %q: valid values are sequential, parallel", FieldSettingsDuet, s.Duet)
	case s.Duet == DuetParallel && s.counting():
		return mbopt.Errorf("%s %s applies to %s %s only: with %s both versions already run at the same time where there are 2 CPUs, unbound (a count does not depend on its neighbours); leave %s out", FieldSettingsDuet, DuetParallel, FieldSettingsMetric, measure.Time, s.Metric, FieldSettingsDuet)
	case !(s.FDR > 0 && s.FDR <= 1):
		return mbopt.Errorf("%s %v: it must be in (0, 1], such as 0.05 (1 turns the correction off)", FieldSettingsFDR, s.FDR)
	case s.Resamples < 1:
		return mbopt.Errorf("%s %d: it must be positive, such as 10000", FieldSettingsResamples, s.Resamples)
	case !(s.UntilStable >= 0) || math.IsInf(s.UntilStable, 1): // NaN too
		return mbopt.Errorf("%s %v: it must be a positive interval width such as 0.02, or 0 for off", FieldSettingsUntilStable, s.UntilStable)
	case !(s.AppImpactThreshold >= 0 && s.AppImpactThreshold < 1): // NaN too
		return mbopt.Errorf("%s %v: it must be in (0, 1), a fraction of the application's CPU time such as 0.001 for 0.1%% (1 would be 100%%, which no change reaches: the gate could never fail), or 0 to pass only the regressions likely without application impact", FieldSettingsAppImpactThreshold, s.AppImpactThreshold)
	case !(s.TargetMDE < 1) || math.IsNaN(s.TargetMDE):
		return mbopt.Errorf("%s %v: it must be a fraction below 1, such as 0.001 for 0.1%%, 0 for the default, or negative for none", FieldSettingsTargetMDE, s.TargetMDE)
	case s.TargetMDE > 0 && !s.counting():
		return mbopt.Errorf("%s applies to the counting metrics (cpu, instructions) only: with %s %s the schedule is fixed (see %s); leave %s out", FieldSettingsTargetMDE, FieldSettingsMetric, cmp.Or(s.Metric, measure.Time), FieldSettingsUntilStable, FieldSettingsTargetMDE)
	case s.Jobs < 0:
		return FieldSettingsJobs.Errorf("Jobs is %d; it must be positive, or 0 for one per CPU", s.Jobs)
	case s.Budget < 0:
		return FieldSettingsBudget.Errorf("Budget is %v; it must be a positive duration, or 0 for none", s.Budget)
	}
	if _, _, err := engine.ParseBenchTime(s.BenchTime); err != nil {
		return FieldSettingsBenchTime.Errorf("%w", err)
	}
	return nil
}

// differences names each field in which s differs from t, by its JSON
// name with both values, such as "count 5 ≠ 3", in the order of the
// fields: every field of Settings, found by reflection, so that a field
// added to Settings is compared without a list to keep up to date.
func (s Settings) differences(t Settings) []string {
	a, b := reflect.ValueOf(s), reflect.ValueOf(t)
	var out []string
	for i := range a.NumField() {
		x, y := a.Field(i).Interface(), b.Field(i).Interface()
		if !reflect.DeepEqual(x, y) {
			name, _, _ := strings.Cut(a.Type().Field(i).Tag.Get("json"), ",")
			out = append(out, fmt.Sprintf("%s %v ≠ %v", name, x, y))
		}
	}
	return out
}

// Schedule returns the engine's schedule of s, its zero fields taken as
// the defaults ([DefaultSettings]; a counting metric's own count and
// bench time), as [Run] gives it to engine.Run.
func (s Settings) Schedule() engine.Schedule { return s.forRun().withDefaults().schedule() }

// schedule returns the engine's schedule of s (after withDefaults).
func (s Settings) schedule() engine.Schedule {
	return engine.Schedule{Trials: s.Trials, Runs: s.Runs, Count: s.Count, BenchTime: s.BenchTime, Benchmem: s.Benchmem,
		Seed: s.Seed, UntilStable: s.UntilStable, TargetMDE: s.targetMDE(), Jobs: s.Jobs, Confidence: s.Confidence, Resamples: s.Resamples,
		Budget: s.Budget, Metric: s.Metric, Duet: s.Duet}
}

// targetMDE returns the engine's TargetMDE: none when off (negative), and
// none for a schedule planned with fewer measurements per version than a
// verdict needs (a quick look, which is not extended).
func (s Settings) targetMDE() float64 {
	if planned, needed := s.planned(); s.TargetMDE <= 0 || planned < needed {
		return 0
	}
	return s.TargetMDE
}

// Planned returns the measurements per version s plans, Trials × Runs ×
// Count, and the fewest a verdict needs, benchstats.MinSamples at its
// Confidence (8 at the default 99%), its zero fields taken as a run's
// defaults. With fewer planned than needed the comparison is a quick
// look: every result is TooFew, unchanged whatever it measured, and
// TargetMDE does not extend it.
func (s Settings) Planned() (planned, needed int) { return s.forRun().withDefaults().planned() }

// planned is [Settings.Planned] of s after withDefaults.
func (s Settings) planned() (planned, needed int) {
	return s.Trials * s.Runs * s.Count, benchstats.MinSamples(s.Confidence)
}

// counting reports whether the comparison measures with a counting metric
// (see [engine.Schedule.Counting]).
func (s Settings) counting() bool { return s.schedule().Counting() }

// unit returns the unit of the metric's results, such as "sec/op".
func (s Settings) unit() string { return s.schedule().Unit() }
