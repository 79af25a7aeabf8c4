package compare

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/measure"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/internal/tmpdir"
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
		return mbopt.Field("Confirm.Benchmark").Errorf("and %s both name the application workload; give one of them", mbopt.Field("Confirm.Command"))
	case strings.TrimSpace(c.Command) == "" && c.Command != "":
		return mbopt.Field("Confirm.Command").Errorf("is blank; give the command that runs the application workload")
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

// confirm measures the application workload of Options.Confirm on both
// versions into rep.AppMeasured when some result's estimate passes the
// threshold, else notes why it did not. A workload that cannot be
// measured (fails, or names no benchmark) is a note, not an error; ctx's
// end and a missing Valgrind end the comparison.
func (r *runner) confirm(ctx context.Context, ws *workspace, rep *Report) error {
	c := r.opt.Confirm
	var lead *Result
	for i := range rep.Results {
		if res := &rep.Results[i]; passes(res, r.s.AppImpactThreshold) && (lead == nil || math.Abs(res.AppImpact.Estimate) > math.Abs(lead.AppImpact.Estimate)) {
			lead = res
		}
	}
	if lead == nil {
		r.note(fmt.Sprintf("confirmation: no estimated application impact passed %s, so the application workload was not measured", thresholdWords(r.s.AppImpactThreshold)))
		return nil
	}
	var m *AppMeasurement
	var err error
	if c.Command != "" {
		m, err = r.confirmCommand(ctx, c.Command)
	} else {
		m, err = r.confirmBenchmark(ctx, ws, rep, c.Benchmark)
	}
	if stop := stops(ctx, err); stop != nil {
		return stop
	}
	if err != nil {
		r.note("confirmation: the application workload could not be measured: " + textutil.FirstLine(err.Error()))
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
// benchmark measured now on both versions.
func (r *runner) confirmBenchmark(ctx context.Context, ws *workspace, rep *Report, name string) (*AppMeasurement, error) {
	for _, res := range rep.Results {
		if (res.ID == name || res.Name == name) && res.Status == Compared && res.Unit == r.s.unit() && res.Estimate != nil {
			return &AppMeasurement{Source: "benchmark " + res.ID, Unit: res.Unit, Estimate: *res.Estimate}, nil
		}
	}
	u, err := r.confirmUnit(ctx, ws, name)
	if err != nil {
		return nil, err
	}
	conf := newRawData()
	trials := trialsOf(r.s.Trials, r.opt.TrialShard)
	r.total += 2 * len(trials) * r.s.Runs
	for _, t := range trials {
		for run := 1; run <= r.s.Runs; run++ {
			sides := r.sideOrder()
			for _, side := range sides {
				res, err := r.measureOne(ctx, u, side, -1, t, run)
				if why := res.failure(); err == nil && why != "" {
					err = fmt.Errorf("%s failed in the %s: %s", u.id(), side, why)
				}
				if err != nil {
					return nil, err
				}
				m := marker{side: side, commit: r.vers[side].rev.Commit, trial: t, run: run}
				if err := conf.read(u.id(), bytes.NewReader(append([]byte(m.String()+"\n"), res.results...))); err != nil {
					return nil, fmt.Errorf("%s: reading its output: %w", u.id(), err)
				}
				r.done++
				r.emit(Event{Kind: EventRun, Done: r.done, Total: r.total, Package: u.pkg, Name: u.name, Side: side, Trial: t, Run: run, Wall: res.wall})
			}
		}
	}
	k := key{u.id(), r.s.unit()}
	b, h := conf.samples[Base][k], conf.samples[Head][k]
	if b == nil || h == nil {
		return nil, fmt.Errorf("%s measured no %s in a version", u.id(), r.s.unit())
	}
	e, err := benchstats.Compare(b.h, h.h, benchstats.Options{Resamples: r.s.Resamples, Confidence: r.s.Confidence, Seed: r.s.Seed ^ hashString(k.id+"\x00"+k.unit)})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", u.id(), err)
	}
	return &AppMeasurement{Source: "benchmark " + u.id(), Unit: k.unit, Estimate: e}, nil
}

// confirmUnit returns the unit that runs the benchmark name (an id, or a
// full name in one of the compared packages), building its package in
// both versions when no compared benchmark needed it.
func (r *runner) confirmUnit(ctx context.Context, ws *workspace, name string) (*unit, error) {
	pkg, full := "", name
	if p, n, ok := benchname.SplitID(name); ok {
		pkg, full = p, n
	}
	top := benchname.Top(full)
	if pkg == "" {
		for _, p := range slices.Sorted(maps.Keys(r.builds)) {
			if slices.Contains(r.builds[p][Base].tops, top) {
				pkg = p
				break
			}
		}
		if pkg == "" {
			return nil, fmt.Errorf("no compared package has the benchmark %s; name it by its id (package import path + \".\" + name)", name)
		}
	}
	if r.builds[pkg] == nil {
		if _, ok := r.pkgDir(r.vers[Base], pkg); !ok {
			return nil, fmt.Errorf("benchmark %s: package %s is not in the module %s", name, pkg, r.modPath)
		}
		var pb [2]*pkgBuild
		for side := range r.vers {
			b, _, err := r.build(ctx, ws, Side(side), pkg)
			if err != nil {
				return nil, err
			}
			pb[side] = b
		}
		r.builds[pkg] = &pb
	}
	for side, b := range r.builds[pkg] {
		if b.bin == "" || !slices.Contains(b.tops, top) {
			why := "does not have it"
			if b.err != "" {
				why = "does not build: " + textutil.FirstLine(b.err)
			}
			return nil, fmt.Errorf("benchmark %s: package %s in the %s %s", name, pkg, Side(side), why)
		}
	}
	full = benchname.Rewrite(full)
	u := &unit{pkg: pkg, name: full, pattern: benchname.Pattern([]string{full}), on: [2]bool{true, true}}
	return u, nil
}

// confirmCommand measures the command on both versions, in each one's
// module root.
func (r *runner) confirmCommand(ctx context.Context, cmd string) (*AppMeasurement, error) {
	metric := r.s.Metric
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
	env := append(r.opt.env(), "MBOPT_CPUPROFILE="+prof)
	trials := trialsOf(r.s.Trials, r.opt.TrialShard)
	var h [2]benchstats.Hierarchy
	r.total += 2 * len(trials) * r.s.Runs
	for ti, t := range trials {
		for side := range h {
			h[side] = append(h[side], nil)
		}
		for run := 1; run <= r.s.Runs; run++ {
			sides := r.sideOrder()
			for _, side := range sides {
				v, err := measure.MeasureCommand(ctx, metric, measure.Command{Shell: shell, Dir: r.vers[side].dir, Env: env, Timeout: r.timeout})
				if err != nil {
					return nil, fmt.Errorf("in the %s: %w", side, err)
				}
				h[side][ti] = append(h[side][ti], []float64{v})
				r.done++
				r.emit(Event{Kind: EventRun, Done: r.done, Total: r.total, Name: "application command", Side: side, Trial: t, Run: run})
			}
		}
	}
	unit := measure.CommandUnit(metric)
	e, err := benchstats.Compare(h[Base], h[Head], benchstats.Options{Resamples: r.s.Resamples, Confidence: r.s.Confidence, Seed: r.s.Seed ^ hashString("command\x00"+cmd)})
	if err != nil {
		return nil, err
	}
	return &AppMeasurement{Source: "command " + cmd, Unit: unit, Estimate: e}, nil
}
