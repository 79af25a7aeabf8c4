package flow

import (
	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/relevance/shard"
)

// Resolve settles the settings of cfg that depend on one another, and
// checks them, as [Compare] does before anything runs; a caller that
// applies the gate itself calls it first for the resolved FailOn. Zero
// settings are the defaults (compare.Settings.Check). It is idempotent:
//   - Settings.Metric must be one of measure.Metrics; a zero one becomes
//     the metric compare.Run would choose (compare.Settings.RunMetric:
//     instructions where Valgrind is installed, else time), so that the
//     comparison can say which it measures before it starts;
//   - FailOn "" is FailOnNever for an A/A comparison (a detection there is
//     a false alarm, not a regression) and for a Bridge (the new baseline
//     differs on purpose), else FailOnDefiniteRegression;
//   - Confirm needs Analysis and one of AppBenchmark and AppCommand, which
//     become Options.Confirm; AppCommand needs Confirm;
//   - FailOnAppImpact needs Analysis (the application's profile says which
//     functions it runs); with it or Confirm, Settings.AppImpactThreshold
//     is AppImpactThreshold, or compare.DefaultAppImpactThreshold when
//     that is nil; with any other gate and without Confirm
//     AppImpactThreshold must be nil, and Settings.AppImpactThreshold is
//     cleared;
//   - then the settings must pass compare.Settings.Check.
func (cfg *CompareConfig) Resolve() error {
	s := &cfg.Settings
	if s.Metric != "" {
		if _, err := measure.ParseMetric(string(s.Metric)); err != nil {
			return compare.FieldSettingsMetric.Errorf("%v", err)
		}
	}
	s.Metric = s.RunMetric()
	if cfg.FailOn == "" {
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
		return appImpactNeedsAnalysis("the application's profile says which functions it runs")
	case cfg.FailOn == compare.FailOnAppImpact, cfg.Confirm:
		s.AppImpactThreshold = compare.DefaultAppImpactThreshold
		if cfg.AppImpactThreshold != nil {
			s.AppImpactThreshold = *cfg.AppImpactThreshold
		}
	case cfg.AppImpactThreshold != nil:
		return mbopt.Errorf("%s applies to %s %s and %s only", FieldAppImpactThreshold, compare.FieldFailOn, compare.FailOnAppImpact, FieldConfirm)
	default:
		s.AppImpactThreshold = 0
	}
	// The rest of the settings' ranges, before any analysis or build.
	return s.Check()
}

// ResolveShards sets the Shard, TrialShard and ShardCosts of opt from the
// settings as written: spec and trialSpec as shard.Resolve reads them (K/N;
// /N takes K from $JOB_COMPLETION_INDEX, through getenv), costs as
// manifest.ShardCostsFor reads it. Unlike a collection's (see
// manifest.ResolveShard), an empty spec does not read $MBOPT_SHARD: a
// collection's shard index says nothing about a comparison's. A malformed
// spec is an input error about engine's Shard or TrialShard.
func ResolveShards(opt *compare.Options, spec, trialSpec, costs string, getenv func(string) string) error {
	shardEnv := getenv
	if spec == "" {
		shardEnv = func(string) string { return "" }
	}
	var err error
	if opt.Shard, opt.ShardCosts, err = manifest.ResolveShard(spec, costs, shardEnv); err != nil || trialSpec == "" {
		return err
	}
	if opt.TrialShard, err = shard.Resolve(trialSpec, getenv); err != nil {
		return mbopt.Errorf("%s: %v", engine.FieldTrialShard, err)
	}
	return nil
}

// appImpactNeedsAnalysis is the refusal of the gate app-impact without the
// analysis flags, as [CompareConfig.Resolve] and [Merge] word it: the
// gate, the flags, then why (a format, with args) and what to do.
func appImpactNeedsAnalysis(why string, args ...any) error {
	return mbopt.Errorf("%s %s needs the analysis flags (%s, %s): "+why, append([]any{compare.FieldFailOn, compare.FailOnAppImpact, FieldAnalysisApp, FieldAnalysisMicro}, args...)...)
}
