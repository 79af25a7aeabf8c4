package compare

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/internal/tmpdir"
	"github.com/mbopt/mbopt/relevance/measure"
)

// A Confirm names the application workload that confirms the results'
// estimated application impact by measuring it on both versions
// (Options.Confirm): with the comparison's metric and schedule (Trials ×
// Runs per version, the versions in a random order in each run), after the
// benchmarks, and only when some result's estimated application impact
// passes Settings.AppImpactThreshold (any estimate that is not 0 and not
// "likely no application impact" when the threshold is 0). The zero value
// confirms nothing; set one of Benchmark and Command.
type Confirm struct {
	// Benchmark is the benchmark that is the application workload, by
	// its id (package import path + "." + full name) or full name. A
	// compared result of it is the measurement; otherwise it is measured
	// then, like the compared benchmarks.
	Benchmark string
	// Command is a shell command (sh -c) that runs the application
	// workload in each version's module root, as mbopt run's --app-cmd
	// takes it: "{profile}" in it, and $MBOPT_CPUPROFILE, name a
	// temporary file for the CPU profile it may write (not read). Its
	// whole run is measured (measure.MeasureCommand: wall time, CPU time,
	// or every process's instructions under Valgrind), so it should run
	// a fixed amount of work: a built program, or go test -bench with an
	// iteration count, rather than go run or a timed load.
	Command string
}

// Enabled reports whether c names a workload.
func (c Confirm) Enabled() bool { return c.Benchmark != "" || c.Command != "" }

// check checks c.
func (c Confirm) check() error {
	switch {
	case c.Benchmark != "" && c.Command != "":
		return FieldConfirmBenchmark.Errorf("and %s both name the application workload; give one of them", FieldConfirmCommand)
	case strings.TrimSpace(c.Command) == "" && c.Command != "":
		return FieldConfirmCommand.Errorf("is blank; give the command that runs the application workload")
	}
	return nil
}

// passes reports whether res's estimated application impact calls for a
// confirmation at threshold.
func passes(res *Result, threshold float64) bool {
	a := res.AppImpact
	if res.Status != Compared || a == nil || a.NoImpact || a.Basis == culprit.BasisNone || a.Estimate == 0 {
		return false
	}
	return math.Abs(a.Estimate) >= threshold
}

// confirm measures the application workload conf (Options.Confirm) on both
// versions into rep.AppMeasured when some result's estimate passes the
// threshold, else notes why it did not. A workload that cannot be
// measured (fails, or names no benchmark) is a note, not an error; ctx's
// end and a missing Valgrind end the comparison.
func (c *comparison) confirm(ctx context.Context, rep *Report, conf Confirm) error {
	var lead *Result
	for i := range rep.Results {
		if res := &rep.Results[i]; passes(res, c.s.AppImpactThreshold) && (lead == nil || math.Abs(res.AppImpact.Estimate) > math.Abs(lead.AppImpact.Estimate)) {
			lead = res
		}
	}
	if lead == nil {
		c.note(fmt.Sprintf("confirmation: no estimated application impact passed %s, so the application workload was not measured", thresholdWords(c.s.AppImpactThreshold)))
		return nil
	}
	var m *AppMeasurement
	var err error
	if conf.Command != "" {
		m, err = c.confirmCommand(ctx, conf.Command)
	} else {
		m, err = c.confirmBenchmark(ctx, rep, conf.Benchmark)
	}
	if stop := engine.Stops(ctx, err); stop != nil {
		return stop
	}
	if err != nil {
		c.note("confirmation: the application workload could not be measured: " + textutil.FirstLine(err.Error()))
		return nil
	}
	rep.AppMeasured = m
	return nil
}

// thresholdWords says the confirmation's threshold.
func thresholdWords(t float64) string {
	if t == 0 {
		return "0 (any estimate not marked likely no application impact)"
	}
	return fmt.Sprintf("the threshold %g%%", 100*t)
}

// confirmBenchmark returns the measurement of the benchmark name: its
// compared result in the metric's unit when there is one, else the
// benchmark measured now on both versions (engine.Raw.MeasureBenchmark).
func (c *comparison) confirmBenchmark(ctx context.Context, rep *Report, name string) (*AppMeasurement, error) {
	for _, res := range rep.Results {
		if (res.ID == name || res.Name == name) && res.Status == Compared && res.Unit == c.s.unit() && res.Estimate != nil {
			return &AppMeasurement{Source: "benchmark " + res.ID, Unit: res.Unit, Estimate: *res.Estimate}, nil
		}
	}
	conf, id, err := c.raw.MeasureBenchmark(ctx, name)
	if err != nil {
		return nil, err
	}
	k := engine.Key{ID: id, Unit: c.s.unit()}
	b, h := conf.Samples[Base][k], conf.Samples[Head][k]
	if b == nil || h == nil {
		return nil, fmt.Errorf("%s measured no %s in a version", id, c.s.unit())
	}
	e, err := benchstats.Compare(b.H, h.H, benchstats.Options{Resamples: c.s.Resamples, Confidence: c.s.Confidence, Seed: c.s.Seed ^ engine.Hash(k.ID+"\x00"+k.Unit)})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	return &AppMeasurement{Source: "benchmark " + id, Unit: k.Unit, Estimate: e}, nil
}

// confirmCommand measures the command on both versions, in each one's
// module root (engine.Raw.MeasureCommand).
func (c *comparison) confirmCommand(ctx context.Context, cmd string) (*AppMeasurement, error) {
	metric := c.s.Metric
	if metric == "" {
		metric = measure.Time
	}
	// A directory an interrupt or a killed run does not leave behind.
	tmp, removeTmp, err := tmpdir.Make("mbopt-confirm-")
	if err != nil {
		return nil, err
	}
	defer removeTmp()
	prof := filepath.Join(tmp, "cpu.pprof")
	shell := strings.ReplaceAll(cmd, "{profile}", prof)
	env := append(c.raw.Env(), "MBOPT_CPUPROFILE="+prof)
	h, err := c.raw.MeasureCommand(ctx, metric, shell, env)
	if err != nil {
		return nil, err
	}
	unit := measure.CommandUnit(metric)
	e, err := benchstats.Compare(h[Base], h[Head], benchstats.Options{Resamples: c.s.Resamples, Confidence: c.s.Confidence, Seed: c.s.Seed ^ engine.Hash("command\x00"+cmd)})
	if err != nil {
		return nil, err
	}
	return &AppMeasurement{Source: "command " + cmd, Unit: unit, Estimate: e}, nil
}
