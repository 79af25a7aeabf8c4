package engine

// This file runs the RMIT schedule: its size within a budget, each
// unit's processes in both versions, their results, and the units that
// stop early.

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/internal/textutil"
)

// processTime estimates one process of u on one side: count × benchtime
// (scaled by overheadFactor) plus the process overhead measured when
// listing the binary's benchmarks. An iteration-count benchtime ("100x")
// has no time to go by: only the overhead counts then.
func (r *runner) processTime(u *unit, side Side, count int) time.Duration {
	d, _, _ := ParseBenchTime(r.s.BenchTime)
	est := time.Duration(float64(d) * float64(count) * overheadFactor)
	if b := r.builds[u.pkg][side]; b != nil {
		est += b.list
	}
	return est
}

// estimate returns the expected wall time of a schedule.
func (r *runner) estimate(trials, runs, count int) time.Duration {
	var per time.Duration
	for _, u := range r.units {
		for side := range 2 {
			if u.on[side] {
				per += r.processTime(u, Side(side), count)
			}
		}
	}
	return per * time.Duration(trials*runs)
}

// fitBudget shrinks the schedule to fit Settings.Budget: it keeps as many
// trials as it can (never fewer than 2, or Trials when that is less),
// then the most measurements per trial, preferring more runs on a tie.
func (r *runner) fitBudget() {
	if r.s.Budget <= 0 {
		return
	}
	T, R, C := r.s.Trials, r.s.Runs, r.s.Count
	full := r.estimate(T, R, C)
	if full <= r.s.Budget {
		r.note(fmt.Sprintf("budget %s: the full schedule (%d trials × %d runs × count %d, about %s) fits", r.s.Budget, T, R, C, full.Round(time.Second)))
		return
	}
	minT := min(T, 2)
	best := [3]int{minT, 1, 1}
	found := false
	for t := T; t >= minT && !found; t-- {
		bestN := 0
		for rr := R; rr >= 1; rr-- {
			for c := C; c >= 1; c-- {
				if r.estimate(t, rr, c) <= r.s.Budget && rr*c > bestN {
					best, bestN, found = [3]int{t, rr, c}, rr*c, true
				}
			}
		}
	}
	r.s.Trials, r.s.Runs, r.s.Count = best[0], best[1], best[2]
	est := r.estimate(best[0], best[1], best[2])
	if found {
		r.note(fmt.Sprintf("budget %s: chose %s × %s × count %d (about %s) instead of %d × %d × %d (about %s)",
			r.s.Budget, textutil.Plural(best[0], "trial"), textutil.Plural(best[1], "run"), best[2], est.Round(time.Second), T, R, C, full.Round(time.Second)))
	} else {
		r.note(fmt.Sprintf("budget %s: too short for even %d trials × 1 run × count 1 (about %s); ran that",
			r.s.Budget, best[0], est.Round(time.Second)))
	}
}

// schedule runs the RMIT schedule: for each trial and run, the units in a
// random order, and for each unit the two versions back to back in a
// random order.
func (r *runner) schedule(ctx context.Context) error {
	for side := range 2 {
		v := r.vers[side]
		r.rws[side] = newRawWriter(fmt.Sprintf("mbopt compare: %s %s (commit %s%s); %d trials × %d runs × count %d, benchtime %s",
			Side(side), v.rev.Spec, v.rev.Commit, map[bool]string{true: ", with uncommitted changes"}[v.rev.Dirty], r.s.Trials, r.s.Runs, r.s.Count, r.s.BenchTime))
	}
	for _, u := range r.units {
		for side := range 2 {
			if u.on[side] {
				r.total += len(trialsOf(r.s.Trials, r.plan.TrialShard)) * r.s.Runs
			}
		}
	}
	r.timeout = r.plan.Timeout
	if r.timeout <= 0 {
		d, _, _ := ParseBenchTime(r.s.BenchTime)
		r.timeout = max(10*time.Minute, 10*time.Duration(r.s.Count)*d)
	}
	order := slices.Clone(r.units)
	trials := trialsOf(r.s.Trials, r.plan.TrialShard)
	for i := 0; i < len(trials); i++ {
		t := trials[i]
		for run := 1; run <= r.s.Runs; run++ {
			r.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			if err := r.runUnits(ctx, order, t, run); err != nil {
				return err
			}
		}
		r.ran = t
		for _, u := range r.units {
			if !u.stopped {
				u.trials = t
			}
		}
		if (r.s.UntilStable > 0 || r.s.TargetMDE > 0) && t >= 2 && !r.plan.TrialShard.Enabled() {
			r.stopStable(t)
		}
		if i == len(trials)-1 && r.extend(t) {
			trials = append(trials, t+1)
		}
	}
	return nil
}

// runUnits runs one run of trial t: the units in order, each in both
// versions back to back in a random order, or, with the instructions
// metric, every unit's measurements at once on Schedule.Jobs processes
// (recorded in that order), or both versions of a unit at once with the
// cpu metric on 2 CPUs or more, or in a parallel duet.
func (r *runner) runUnits(ctx context.Context, order []*unit, t, run int) error {
	if jobs, ok := r.s.parallel(); ok {
		return r.runJobs(ctx, order, jobs, t, run)
	}
	for _, u := range order {
		if u.stopped {
			continue
		}
		sides := r.sideOrder()
		if r.pinned != nil || (r.s.Counting() && runtime.NumCPU() >= 2) {
			if err := r.runPair(ctx, u, sides, t, run); err != nil {
				return err
			}
			continue
		}
		for _, side := range sides {
			if !u.on[side] || u.out(side) {
				continue
			}
			if err := r.runOne(ctx, u, side, t, run); err != nil {
				return err
			}
		}
	}
	return nil
}

// runJobs measures every unit of order in both versions (the versions
// in a random order), jobs measurements at a time, and records each in
// that order as soon as it and every one before it are done, so that
// progress shows while a round of measurements runs (a round of 300
// benchmarks under Valgrind takes many minutes). Recording reads and
// writes only what the running measurements do not: a job is the only
// one of its unit and version in the round. The first error cancels the
// measurements still running and is returned once they have ended.
func (r *runner) runJobs(ctx context.Context, order []*unit, jobs, t, run int) error {
	type job struct {
		u    *unit
		side Side
		o    outcome
		err  error
		done chan struct{}
	}
	var js []*job
	for _, u := range order {
		if u.stopped {
			continue
		}
		for _, side := range r.sideOrder() {
			if u.on[side] && !u.out(side) {
				js = append(js, &job{u: u, side: side, done: make(chan struct{})})
			}
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait() // deferred first, so it runs after cancel
	defer cancel()
	sem := make(chan struct{}, max(jobs, 1))
	wg.Add(1)
	go func() { // the launcher: starts each job once a slot is free
		defer wg.Done()
		for i, j := range js {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				for _, rest := range js[i:] {
					rest.err = ctx.Err()
					close(rest.done)
				}
				return
			}
			wg.Add(1)
			go func() {
				defer func() { <-sem; close(j.done); wg.Done() }()
				j.o, j.err = r.measureOne(ctx, j.u, j.side, -1, t, run)
			}()
		}
	}()
	for _, j := range js {
		<-j.done
		if j.err != nil {
			return j.err
		}
		if err := r.record(ctx, j.u, j.side, t, run, j.o); err != nil {
			return err
		}
	}
	return nil
}

// extend reports whether Schedule.TargetMDE asks for another trial after
// trial t, the last one planned: some unit is neither stopped, failed nor
// skipped (its MDE is above the target), t is below ExtraTrialsFactor ×
// Trials, and the trial's time fits into what is left of the budget.
// It notes the first extra trial, and why the extension ends.
func (r *runner) extend(t int) bool {
	if r.s.TargetMDE <= 0 || r.plan.TrialShard.Enabled() {
		return false
	}
	var left []*unit
	var per time.Duration
	for _, u := range r.units {
		if !u.stopped && u.on[Base] && u.on[Head] && !u.out(Base) && !u.out(Head) {
			left = append(left, u)
			per += u.wall / time.Duration(t)
		}
	}
	if len(left) == 0 {
		return false
	}
	if jobs, ok := r.s.parallel(); ok {
		per /= time.Duration(min(jobs, 2*len(left)))
	}
	switch {
	case t >= ExtraTrialsFactor*r.s.Trials:
		r.note(fmt.Sprintf("target MDE %s: %s still above it after %d trials, %d times those planned",
			mdeText(r.s.TargetMDE), textutil.Plural(len(left), "benchmark"), t, ExtraTrialsFactor))
		return false
	case r.s.Budget > 0 && time.Since(r.start)+per > r.s.Budget:
		r.note(fmt.Sprintf("target MDE %s: %s still above it after %d trials, when the budget %s ran out",
			mdeText(r.s.TargetMDE), textutil.Plural(len(left), "benchmark"), t, r.s.Budget))
		return false
	}
	if t == r.s.Trials {
		r.note(fmt.Sprintf("target MDE %s: %s above it after the %d trials planned got more trials",
			mdeText(r.s.TargetMDE), textutil.Plural(len(left), "benchmark"), t))
	}
	r.total += 2 * len(left) * r.s.Runs
	return true
}

// runOne runs unit u's benchmark in one version and records its results.
func (r *runner) runOne(ctx context.Context, u *unit, side Side, trial, run int) error {
	o, err := r.measureOne(ctx, u, side, -1, trial, run)
	if err != nil {
		return err
	}
	return r.record(ctx, u, side, trial, run, o)
}

// runPair runs unit u in both versions at once, each in its own
// processes, and records the results in sides' order. The counting
// metrics do this: a count does not depend on what else the machine runs,
// so the two versions can share the machine's cores.
func (r *runner) runPair(ctx context.Context, u *unit, sides []Side, trial, run int) error {
	var res [2]outcome
	var errs [2]error
	var wg sync.WaitGroup
	for _, side := range sides {
		if u.on[side] && !u.out(side) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[side], errs[side] = r.measureOne(ctx, u, side, r.cpuOf(side, trial, run), trial, run)
			}()
		}
	}
	wg.Wait()
	for _, side := range sides {
		if !u.on[side] || u.out(side) {
			continue
		}
		if err := errs[side]; err != nil {
			return err
		}
		if err := r.record(ctx, u, side, trial, run, res[side]); err != nil {
			return err
		}
	}
	return nil
}

// cpuOf returns the CPU of a version's process in a parallel duet (-1:
// not bound): the two CPUs alternate between the versions from run to
// run, so neither version keeps a faster one.
func (r *runner) cpuOf(side Side, trial, run int) int {
	if r.pinned == nil {
		return -1
	}
	return r.pinned[(int(side)+trial+run)%2]
}

// measureOne runs unit u in one version, for run run of trial trial: one
// test binary process with the time metric (bound to CPU cpu when cpu >=
// 0, with GOMAXPROCS=1; read by outcomeOf), or the measurements of
// runCounted.
func (r *runner) measureOne(ctx context.Context, u *unit, side Side, cpu, trial, run int) (outcome, error) {
	b := r.builds[u.pkg][side]
	if r.s.Counting() {
		start := time.Now()
		o, err := r.runCounted(ctx, u, side, trial, run)
		if err != nil {
			return o, err
		}
		o.wall = time.Since(start)
		return o, ctx.Err()
	}
	args := []string{"-test.run", "^$", "-test.bench", u.pattern, "-test.count", strconv.Itoa(r.s.Count), "-test.benchtime", r.s.BenchTime}
	if r.s.Benchmem {
		args = append(args, "-test.benchmem")
	}
	args = append(args, testbin.BenchArgs...)
	env := r.plan.env()
	if cpu >= 0 {
		env = append(env, "GOMAXPROCS=1")
	}
	res := testbin.RunOn(ctx, cpu, b.dir, env, r.timeout, b.bin, args...)
	return outcomeOf(u, res, r.timeout), ctx.Err()
}

// record adds the results of one process (or measurement) of unit u in a
// version to the raw files and the data, and marks the unit, or the
// sub-benchmarks that failed, failed there, and those that skipped
// themselves skipped (see [outcome]).
func (r *runner) record(ctx context.Context, u *unit, side Side, trial, run int, o outcome) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	u.wall += o.wall
	r.done++
	m := marker{side: side, commit: r.vers[side].rev.Commit, trial: trial, run: run}
	var runErr error
	if len(o.ignored) > 0 {
		r.ignored(u, side, o.ignored)
	}
	if o.unitFailed != "" {
		u.failed[side] = o.unitFailed
	} else {
		if err := r.rws[side].write(m, o.results); err != nil {
			return fmt.Errorf("%s: reading the benchmark output: %w", u.name, err)
		}
		block := []byte(m.String() + "\n")
		if err := r.data.Read(u.pkg, bytes.NewReader(append(block, o.results...))); err != nil {
			return fmt.Errorf("%s: reading the benchmark output: %w", u.name, err)
		}
	}
	for _, f := range o.failed {
		if u.subFailed[side] == nil {
			u.subFailed[side] = map[string]string{}
		}
		if u.subFailed[side][f.Name] == "" {
			u.subFailed[side][f.Name] = f.Message
		}
		runErr = fmt.Errorf("%s: %s", f.Name, textutil.FirstLine(f.Message))
	}
	for _, sk := range o.skipped {
		if u.skipped[side] == nil {
			u.skipped[side] = map[string]string{}
		}
		if _, seen := u.skipped[side][sk.Name]; !seen {
			u.skipped[side][sk.Name] = cmp.Or(sk.Message, SkippedNoMessage)
		}
	}
	if o.ended != "" && u.ended[side] == "" {
		u.ended[side] = o.ended
	}
	u.noteStarts(side, o)
	if u.failed[side] != "" {
		runErr = errors.New(textutil.FirstLine(u.failed[side]))
	}
	if u.out(side) {
		// The rest of its schedule in this version is skipped.
		r.total -= max(0, r.s.Trials-trial)*r.s.Runs + (r.s.Runs - run)
	}
	r.emit(Event{Kind: EventRun, Done: r.done, Total: r.total, Package: u.pkg, Name: u.name, Side: side, Trial: trial, Run: run, Wall: o.wall, Err: runErr})
	return nil
}

// ids returns the benchmark ids u measured, in either version.
func (r *runner) ids(u *unit) []string {
	var ids []string
	seen := map[string]bool{}
	prefix := u.id()
	for _, k := range r.data.Order {
		if (k.ID == prefix || strings.HasPrefix(k.ID, prefix+"/")) && !seen[k.ID] && r.data.Benches[k.ID].Package == u.pkg {
			seen[k.ID] = true
			ids = append(ids, k.ID)
		}
	}
	return ids
}

// stopStable stops the units whose every benchmark has an estimate of
// the metric's unit (sec/op, cpu-sec/op, instructions/op) precise enough
// after trial t (see [runner.precise]), never before both versions have
// the measurements a verdict needs (benchstats.MinSamples), and adds the
// time of their remaining planned trials to the time saved.
func (r *runner) stopStable(t int) {
	for _, u := range r.units {
		if u.stopped || !u.on[Base] || !u.on[Head] || u.out(Base) || u.out(Head) {
			continue
		}
		ids := r.ids(u)
		stable := len(ids) > 0
		minN := benchstats.MinSamples(r.s.Confidence)
		for _, id := range ids {
			k := Key{id, r.s.Unit()}
			b, h := r.data.Samples[Base][k], r.data.Samples[Head][k]
			// Never below the measurements a verdict needs.
			if b == nil || h == nil || b.H.Trials() < 2 || h.H.Trials() < 2 || b.H.Len() < minN || h.H.Len() < minN {
				stable = false
				break
			}
			est, err := benchstats.Compare(b.H, h.H, benchstats.Options{Resamples: r.s.Resamples, Confidence: r.s.Confidence, Seed: r.s.Seed ^ Hash(id)})
			if err != nil || !r.precise(est) {
				stable = false
				break
			}
		}
		if !stable {
			continue
		}
		u.stopped = true
		if left := r.s.Trials - t; left > 0 {
			r.saved += u.wall / time.Duration(t) * time.Duration(left)
			r.total -= 2 * left * r.s.Runs
		}
		r.emit(Event{Kind: EventStable, Done: r.done, Total: r.total, Package: u.pkg, Name: u.name, Trial: t})
	}
}

// mdeText formats a minimum detectable effect as a percentage: "0.1%".
func mdeText(f float64) string { return strconv.FormatFloat(100*f, 'g', 3, 64) + "%" }

// precise reports whether an estimate is precise enough to stop its
// benchmark: its interval is narrower than Schedule.UntilStable, or its
// minimum detectable effect is at most Schedule.TargetMDE.
func (r *runner) precise(est benchstats.Estimate) bool {
	return r.s.UntilStable > 0 && est.CI.Width() < r.s.UntilStable ||
		r.s.TargetMDE > 0 && est.MinDetectableEffect() <= r.s.TargetMDE
}

// sideOrder returns the two versions in the random order in which one run
// measures them (RMIT: back to back, the first one drawn).
func (r *runner) sideOrder() []Side {
	if r.rng.IntN(2) == 1 {
		return []Side{Head, Base}
	}
	return []Side{Base, Head}
}
