package main

import (
	"strconv"

	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/measure"
)

// addScheduleFlags binds the flags of a comparison's metric and schedule
// that compare, bisect and mutate share to st: --metric, --trials,
// --runs, --count, --benchtime, --seed and --target-mde, declared once.
// trials words --trials for the command. --count and --benchtime stay
// zero unless given, which Settings reads as the metric's own defaults.
func addScheduleFlags(f *pflag.FlagSet, st *compare.Settings, trials string) {
	d := compare.DefaultSettings()
	flagbind.Parsed(f, &st.Metric, "metric", measure.DefaultMetricRule, "what to measure per operation: {time|cpu|instructions} (time: the benchmark's ns/op; cpu: its process's CPU time; instructions: counted under Valgrind; cpu and instructions have their own --count and --benchtime defaults and always compare B/op and allocs/op)", measure.ParseMetric, compare.FieldSettingsMetric)
	flagbind.Positive(f, &st.Trials, "trials", d.Trials, trials, flagbind.AtLeastOne, compare.FieldSettingsTrials)
	flagbind.Positive(f, &st.Runs, "runs", d.Runs, "runs per trial: processes per benchmark and version", flagbind.AtLeastOne, compare.FieldSettingsRuns)
	flagbind.Positive(f, &st.Count, "count", 0, "measurements per process (-test.count)", flagbind.AtLeastOne, compare.FieldSettingsCount).DefValue = perMetric(strconv.Itoa(d.Count), strconv.Itoa(compare.CountedCount))
	flagbind.Bind(f, &st.BenchTime, "benchtime", "", "time (1s) or iterations (100x) per measurement (-test.benchtime; with cpu and instructions, of the run that measures allocations)", compare.FieldSettingsBenchTime).DefValue = perMetric(d.BenchTime, compare.CountedBenchTime)
	f.Uint64Var(&st.Seed, "seed", d.Seed, "seed of the schedule and the bootstrap")
	flagbind.Bind(f, &st.TargetMDE, "target-mde", 0, "with --metric cpu or instructions: measure each benchmark until its minimum detectable effect is at most this, e.g. 0.001 (0.1%): stop it early, or add trials, up to 4 times --trials (and within --budget, where the command has one) (0: 0.001 with instructions, none with cpu; negative: none)", compare.FieldSettingsTargetMDE)
}

// perMetric writes the default of a flag whose default depends on the
// metric: the time metric's, then the counting metrics'.
func perMetric(time, counted string) string {
	return time + " with --metric time, " + counted + " with cpu and instructions"
}
