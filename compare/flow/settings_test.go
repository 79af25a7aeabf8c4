package flow

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/relevance/shard"
)

// TestCompareConfigResolve runs without valgrind in PATH, so that a zero
// metric resolves to time; a want with no Metric wants time.
func TestCompareConfigResolve(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	threshold := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		name string
		cfg  CompareConfig
		err  string
		want CompareConfig // FailOn and Settings
	}{
		{name: "zero settings are defaults", cfg: CompareConfig{},
			want: CompareConfig{FailOn: compare.FailOnDefiniteRegression}},
		{name: "a negative count", cfg: CompareConfig{Options: compare.Options{Settings: compare.Settings{Resamples: -1}}},
			err: "Config.Settings.Resamples -1: it must be positive, such as 10000"},
		{name: "unknown metric", cfg: CompareConfig{Options: compare.Options{Settings: compare.Settings{Metric: "wall"}}},
			err: `unknown metric "wall": valid values are {time|cpu|instructions}`},
		{name: "time stays time", cfg: CompareConfig{Options: compare.Options{Settings: compare.Settings{Metric: measure.Time, Count: 5}}},
			want: CompareConfig{FailOn: compare.FailOnDefiniteRegression, Options: compare.Options{Settings: compare.Settings{Count: 5}}}},
		{name: "a counting metric keeps a count set", cfg: CompareConfig{Options: compare.Options{Settings: compare.Settings{Metric: measure.Instructions, Count: 5}}},
			want: CompareConfig{FailOn: compare.FailOnDefiniteRegression, Options: compare.Options{Settings: compare.Settings{Metric: measure.Instructions, Count: 5}}}},
		{name: "A/A never fails", cfg: CompareConfig{Options: compare.Options{AA: true}},
			want: CompareConfig{FailOn: compare.FailOnNever}},
		{name: "a gate set stays with A/A", cfg: CompareConfig{Options: compare.Options{AA: true}, FailOn: compare.FailOnAnyRegression},
			want: CompareConfig{FailOn: compare.FailOnAnyRegression}},
		{name: "a bridge never fails", cfg: CompareConfig{Bridge: true},
			want: CompareConfig{FailOn: compare.FailOnNever}},
		{name: "confirm needs the analysis", cfg: CompareConfig{Confirm: true, AppBenchmark: "BenchmarkServe"},
			err: "Config.Confirm measures the application where its estimated impact calls for it, which needs the analysis flags (Config.Analysis.App, Config.Analysis.Micro)"},
		{name: "confirm needs a workload", cfg: CompareConfig{Confirm: true, Analysis: &analysis.Config{}},
			err: "Config.Confirm needs the application workload: Config.AppBenchmark NAME or Config.AppCommand CMD"},
		{name: "confirm takes one workload", cfg: CompareConfig{Confirm: true, Analysis: &analysis.Config{}, AppBenchmark: "B", AppCommand: "app"},
			err: "Config.AppBenchmark and Config.AppCommand both name the application workload Config.Confirm measures; give one of them"},
		{name: "an application command needs confirm", cfg: CompareConfig{AppCommand: "app"},
			err: "Config.AppCommand is the workload Config.Confirm measures; add Config.Confirm"},
		{name: "app-impact needs the analysis", cfg: CompareConfig{FailOn: compare.FailOnAppImpact},
			err: "Config.FailOn app-impact needs the analysis flags (Config.Analysis.App, Config.Analysis.Micro): the application's profile says which functions it runs"},
		{name: "app-impact takes the default threshold", cfg: CompareConfig{FailOn: compare.FailOnAppImpact, Analysis: &analysis.Config{}},
			want: CompareConfig{FailOn: compare.FailOnAppImpact, Options: compare.Options{Settings: compare.Settings{AppImpactThreshold: compare.DefaultAppImpactThreshold}}}},
		{name: "app-impact keeps its threshold", cfg: CompareConfig{FailOn: compare.FailOnAppImpact, Analysis: &analysis.Config{}, AppImpactThreshold: threshold(0.01)},
			want: CompareConfig{FailOn: compare.FailOnAppImpact, Options: compare.Options{Settings: compare.Settings{AppImpactThreshold: 0.01}}}},
		{name: "app-impact keeps a threshold of 0", cfg: CompareConfig{FailOn: compare.FailOnAppImpact, Analysis: &analysis.Config{}, AppImpactThreshold: threshold(0)},
			want: CompareConfig{FailOn: compare.FailOnAppImpact}},
		{name: "a threshold without app-impact", cfg: CompareConfig{AppImpactThreshold: threshold(0.01)},
			err: "Config.AppImpactThreshold applies to Config.FailOn app-impact and Config.Confirm only"},
		{name: "an app-impact threshold of 100% or more can never fail", cfg: CompareConfig{FailOn: compare.FailOnAppImpact, Analysis: &analysis.Config{}, AppImpactThreshold: threshold(2)},
			err: "Config.Settings.AppImpactThreshold 2: it must be in (0, 1), a fraction of the application's CPU time such as 0.001 for 0.1% (1 would be 100%, which no change reaches: the gate could never fail), or 0 to pass only the regressions likely without application impact"},
		{name: "FDR 0 is the default", cfg: CompareConfig{},
			want: CompareConfig{FailOn: compare.FailOnDefiniteRegression}},
		{name: "a threshold without its gate is cleared", cfg: CompareConfig{Options: compare.Options{Settings: compare.Settings{AppImpactThreshold: 0.001}}},
			want: CompareConfig{FailOn: compare.FailOnDefiniteRegression}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			err := cfg.Resolve()
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("Resolve: %v, want %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want.Settings.Metric == "" {
				tc.want.Settings.Metric = measure.Time
			}
			if cfg.FailOn != tc.want.FailOn || cfg.Settings != tc.want.Settings {
				t.Errorf("Resolve: FailOn %s, Settings %+v; want %s, %+v", cfg.FailOn, cfg.Settings, tc.want.FailOn, tc.want.Settings)
			}
			again := cfg
			if err := again.Resolve(); err != nil || again.FailOn != cfg.FailOn || again.Settings != cfg.Settings {
				t.Errorf("Resolve is not idempotent: %v, %s %+v", err, again.FailOn, again.Settings)
			}
		})
	}
}

// TestResolveDefaultMetric checks that a zero metric becomes the one the
// machine has: instructions with valgrind in PATH, time without it, and
// time with the parallel duet, which only time has.
func TestResolveDefaultMetric(t *testing.T) {
	with := t.TempDir()
	if err := os.WriteFile(filepath.Join(with, "valgrind"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, duet string
		want             measure.Metric
	}{
		{"with valgrind", with, "", measure.Instructions},
		{"without valgrind", t.TempDir(), "", measure.Time},
		{"with valgrind and the parallel duet", with, compare.DuetParallel, measure.Time},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			cfg := CompareConfig{Options: compare.Options{Settings: compare.Settings{Duet: tc.duet}}}
			if err := cfg.Resolve(); err != nil {
				t.Fatal(err)
			}
			if cfg.Settings.Metric != tc.want {
				t.Errorf("Resolve with PATH=%s and duet %q: metric %q, want %q", tc.path, tc.duet, cfg.Settings.Metric, tc.want)
			}
		})
	}
}

// TestResolveShards: a comparison's shard is the one given, never
// $MBOPT_SHARD (a collection's); /N takes K from $JOB_COMPLETION_INDEX for
// either sharding; a malformed spec is an input error naming its setting,
// and costs need a shard.
func TestResolveShards(t *testing.T) {
	env := map[string]string{"MBOPT_SHARD": "1/4", "JOB_COMPLETION_INDEX": "1"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name, spec, trial, costs string
		shard, trialShard        shard.Spec
		err                      string // part of the error, "" for none
	}{
		{"none, whatever MBOPT_SHARD says", "", "", "", shard.Spec{}, shard.Spec{}, ""},
		{"K/N", "2/3", "", "", shard.Spec{Index: 2, Count: 3}, shard.Spec{}, ""},
		{"/N", "/3", "", "", shard.Spec{Index: 1, Count: 3}, shard.Spec{}, ""},
		{"trial /N", "", "/2", "", shard.Spec{}, shard.Spec{Index: 1, Count: 2}, ""},
		{"malformed", "3", "", "", shard.Spec{}, shard.Spec{}, "Config.Shard: shard \"3\": want K/N"},
		{"malformed trial", "", "x", "", shard.Spec{}, shard.Spec{}, "Config.TrialShard: shard \"x\""},
		{"costs without a shard", "", "", "manifest.json", shard.Spec{}, shard.Spec{}, "Config.ShardCosts needs Config.Shard"},
	}
	for _, tt := range tests {
		var opt compare.Options
		err := ResolveShards(&opt, tt.spec, tt.trial, tt.costs, getenv)
		if tt.err != "" {
			if err == nil || !errors.Is(err, mbopt.ErrInput) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want an input error with %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || opt.Shard != tt.shard || opt.TrialShard != tt.trialShard {
			t.Errorf("%s: shard %v, trial shard %v, error %v; want %v and %v", tt.name, opt.Shard, opt.TrialShard, err, tt.shard, tt.trialShard)
		}
	}
}
