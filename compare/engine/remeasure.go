package engine

// This file measures, after the schedule, one more workload on both
// versions with the kept worktrees and test binaries: a benchmark, or a
// shell command.

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/measure"
)

// SideOrder returns the two versions in the random order in which one run
// measures them (RMIT: back to back, the first one drawn), drawn from the
// schedule's random source after the schedule's own draws.
func (raw *Raw) SideOrder() []Side { return raw.r.sideOrder() }

// MeasureBenchmark measures the benchmark name (an id, or a full name in
// one of the measured packages) on both versions with the run's metric
// and schedule (Raw.Trials × Schedule.Runs, the versions in the order
// SideOrder draws in each run), building its package in both versions
// when no measured benchmark needed it, and returns the measurements and
// the benchmark's id. A benchmark that fails, or that a version does not
// have, is an error.
func (raw *Raw) MeasureBenchmark(ctx context.Context, name string) (*Data, string, error) {
	r := raw.r
	u, err := r.unitOf(ctx, raw.ws, name)
	if err != nil {
		return nil, "", err
	}
	d := NewData()
	r.total += 2 * len(raw.Trials) * r.s.Runs
	for _, t := range raw.Trials {
		for run := 1; run <= r.s.Runs; run++ {
			sides := r.sideOrder()
			for _, side := range sides {
				res, err := r.measureOne(ctx, u, side, -1, t, run)
				if why := res.failure(); err == nil && why != "" {
					err = fmt.Errorf("%s failed in the %s: %s", u.id(), side, why)
				}
				if err != nil {
					return nil, "", err
				}
				m := marker{side: side, commit: r.vers[side].rev.Commit, trial: t, run: run}
				if err := d.Read(u.id(), bytes.NewReader(append([]byte(m.String()+"\n"), res.results...))); err != nil {
					return nil, "", fmt.Errorf("%s: reading its output: %w", u.id(), err)
				}
				r.done++
				r.emit(Event{Kind: EventRun, Done: r.done, Total: r.total, Package: u.pkg, Name: u.name, Side: side, Trial: t, Run: run, Wall: res.wall})
			}
		}
	}
	return d, u.id(), nil
}

// unitOf returns the unit that runs the benchmark name (an id, or a
// full name in one of the measured packages), building its package in
// both versions when no measured benchmark needed it.
func (r *runner) unitOf(ctx context.Context, ws *workspace, name string) (*unit, error) {
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
			return nil, fmt.Errorf("benchmark %s: package %s is not in the module %s", name, pkg, r.mod.path)
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

// MeasureCommand measures the shell command (sh -c, with env) on both
// versions, in each one's module root, with metric, on the run's
// schedule as MeasureBenchmark does; one value per run, in the RMIT
// hierarchy (trial → run), by [Side]. A run that fails is an error.
func (raw *Raw) MeasureCommand(ctx context.Context, metric measure.Metric, shell string, env []string) ([2]benchstats.Hierarchy, error) {
	r := raw.r
	var h [2]benchstats.Hierarchy
	r.total += 2 * len(raw.Trials) * r.s.Runs
	for ti, t := range raw.Trials {
		for side := range h {
			h[side] = append(h[side], nil)
		}
		for run := 1; run <= r.s.Runs; run++ {
			sides := r.sideOrder()
			for _, side := range sides {
				start := time.Now()
				v, err := measure.MeasureCommand(ctx, metric, measure.Command{Shell: shell, Dir: r.vers[side].dir, Env: env, Timeout: r.timeout})
				if err != nil {
					return h, fmt.Errorf("in the %s: %w", side, err)
				}
				h[side][ti] = append(h[side][ti], []float64{v})
				r.done++
				r.emit(Event{Kind: EventRun, Done: r.done, Total: r.total, Name: CommandName, Side: side, Trial: t, Run: run, Wall: time.Since(start)})
			}
		}
	}
	return h, nil
}
