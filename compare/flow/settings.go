package flow

import (
	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/measure"
)

// chosen reports whether the caller chose the setting f (see
// CompareConfig.Chosen); zero says whether its value is the zero value.
func (cfg *CompareConfig) chosen(f mbopt.Field, zero bool) bool {
	return mbopt.Chosen(cfg.Chosen, f, zero)
}

// Resolve settles the settings of cfg that depend on what the caller chose
// (see Chosen) and on one another, and checks them, as [Compare] does
// before anything runs; a caller that applies the gate itself calls it
// first for the resolved FailOn. It is idempotent:
//   - a chosen Settings.Trials, Runs, Count or Resamples must be at least 1
//     (a zero left to the library means the default);
//   - Settings.Metric must be one of measure.Metrics; measure.Time, the
//     default, is stored as "", which the report leaves out; with a
//     counting metric (cpu, instructions) Settings.Count and BenchTime not
//     chosen are cleared, so that they take the metric's defaults;
//   - FailOn not chosen is FailOnNever for an A/A comparison (a detection
//     there is a false alarm, not a regression) and for a Bridge (the new
//     baseline differs on purpose), else FailOnDefiniteRegression;
//   - Confirm needs Analysis and one of AppBenchmark and AppCommand, which
//     become Options.Confirm; AppCommand needs Confirm;
//   - FailOnAppImpact needs Analysis (the application's profile says which
//     functions it runs); with any other gate and without Confirm
//     Settings.AppImpactThreshold must not be chosen, and is cleared;
//   - a chosen Settings.FDR must be positive (0 left to the library means
//     the default, 5%);
//   - then the settings must pass compare.Settings.Check.
func (cfg *CompareConfig) Resolve() error {
	s := &cfg.Settings
	for _, n := range []struct {
		field mbopt.Field
		value int
	}{{compare.FieldSettingsTrials, s.Trials}, {compare.FieldSettingsRuns, s.Runs}, {compare.FieldSettingsCount, s.Count}, {compare.FieldSettingsResamples, s.Resamples}} {
		if n.value < 1 && cfg.chosen(n.field, n.value == 0) {
			return mbopt.Errorf("%s %d: it must be at least 1", n.field, n.value)
		}
	}
	if s.FDR <= 0 && cfg.chosen(compare.FieldSettingsFDR, s.FDR == 0) {
		return mbopt.Errorf("%s %v: it must be in (0, 1], such as 0.05 (1 turns the correction off); 0 would flag nothing", compare.FieldSettingsFDR, s.FDR)
	}
	if s.Metric != "" {
		m, err := measure.ParseMetric(string(s.Metric))
		if err != nil {
			return compare.FieldSettingsMetric.Errorf("%v", err)
		}
		if m == measure.Time {
			s.Metric = ""
		} else {
			if !cfg.chosen(compare.FieldSettingsCount, s.Count == 0) {
				s.Count = 0
			}
			if !cfg.chosen(compare.FieldSettingsBenchTime, s.BenchTime == "") {
				s.BenchTime = ""
			}
		}
	}
	if !cfg.chosen(compare.FieldFailOn, cfg.FailOn == "") {
		cfg.FailOn = compare.FailOnDefiniteRegression
		if cfg.AA || cfg.Bridge {
			cfg.FailOn = compare.FailOnNever
		}
	}
	switch {
	case cfg.Confirm && cfg.Analysis == nil:
		return mbopt.Errorf("%s measures the application where its estimated impact calls for it, which needs the analysis flags (%s, %s)", FieldConfirm, FieldAnalysisApp, FieldAnalysisMicro)
	case cfg.Confirm && cfg.AppBenchmark == "" && cfg.AppCommand == "":
		return mbopt.Errorf("%s needs the application workload: %s NAME or %s CMD", FieldConfirm, FieldAppBenchmark, FieldAppCommand)
	case cfg.Confirm && cfg.AppBenchmark != "" && cfg.AppCommand != "":
		return mbopt.Errorf("%s and %s both name the application workload %s measures; give one of them", FieldAppBenchmark, FieldAppCommand, FieldConfirm)
	case !cfg.Confirm && cfg.AppCommand != "":
		return mbopt.Errorf("%s is the workload %s measures; add %s", FieldAppCommand, FieldConfirm, FieldConfirm)
	}
	if cfg.Confirm {
		cfg.Options.Confirm = compare.Confirm{Benchmark: cfg.AppBenchmark, Command: cfg.AppCommand}
	}
	switch {
	case cfg.FailOn == compare.FailOnAppImpact && cfg.Analysis == nil:
		return mbopt.Errorf("%s %s needs the analysis flags (%s, %s): the application's profile says which functions it runs", compare.FieldFailOn, compare.FailOnAppImpact, FieldAnalysisApp, FieldAnalysisMicro)
	case cfg.FailOn == compare.FailOnAppImpact, cfg.Confirm:
	case cfg.chosen(compare.FieldSettingsAppImpactThreshold, s.AppImpactThreshold == 0):
		return mbopt.Errorf("%s applies to %s %s and %s only", compare.FieldSettingsAppImpactThreshold, compare.FieldFailOn, compare.FailOnAppImpact, FieldConfirm)
	default:
		s.AppImpactThreshold = 0
	}
	// The rest of the settings' ranges, before any analysis or build.
	return s.Check()
}
