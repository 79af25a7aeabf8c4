package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/measure"
)

// counted is a runner's state of the counting metrics (CPU time and
// instructions), guarded by runner.mu while both versions run.
type counted struct {
	// keep is the directory of the Valgrind files kept (instructions).
	keep string
	// inspected are the benchmarks measure.Inspect ran on, by side +
	// "\x00" + id.
	inspected map[string]bool
	// perOp is the instructions or CPU seconds per operation last
	// measured (or estimated), by side + "\x00" + id; measuredPerOp marks
	// the keys whose value a measurement gave.
	perOp         map[string]float64
	measuredPerOp map[string]bool
	// counts are the iteration counts both versions use (instructions),
	// by id, trial, run and measurement.
	counts map[string][2]int
	// funcs are, with the instructions metric, every measurement's profile
	// per function.
	funcs funcProfiles
	// listed are, with the instructions metric, the first normal run of
	// each unit in each version (by side + "\x00" + unit id): the later
	// measurements take its benchmarks and configuration lines, and their
	// B/op and allocs/op from their own Valgrind processes.
	listed map[string]listing
}

// A listing is what a unit's first normal run gave: its results and the
// test binary's configuration lines (goos, pkg, …).
type listing struct {
	allocs []measure.Allocation
	config []byte
}

// A caveat is why one benchmark's result deserves less trust, as
// compare.Result.Caveats shows it (Raw.Caveats).
const (
	caveatGuard  = "the collector ran: the heap reached the GOMEMLIMIT guard, so the count includes collection work"
	caveatNotCPU = "its time is not CPU time: it waits (sleep, I/O), which the cpu metric does not see"
)

// runCounted measures unit u in one version with the counting metric and
// returns its outcome, whose results are in the Go benchmark format, as go
// test would print them: the test binary's configuration lines and, for
// each benchmark the unit ran and each of Count measurements, a line with
// the metric per operation and the B/op and allocs/op of a normal run
// (measure.Allocations, at Schedule.BenchTime, -test.count Count). Each
// measurement is measure.CountInstructions or measure.CPUTime. With the
// instructions metric only a unit's first measurement in a version makes
// the normal run, for its benchmarks and their time per operation; the
// B/op and allocs/op are those of each measurement's own Valgrind process
// at the higher count (measure.Value.Allocs), which saves a process per
// measurement.
//
// Only the unit's own benchmarks count (measure.Allocations, as
// outcomeOf for time). A failed normal run fails the sub-benchmarks it
// names (b.Fatal), or the one it was running when it ended (a panic, an
// os.Exit), and the benchmarks that finished before are measured; one
// that names none fails the unit. A failed measurement fails its
// benchmark. err is for errors that end the comparison (a canceled
// context, valgrind missing). With the instructions metric each
// measurement's per-function profile is kept for run run of trial trial
// (runner.keepFuncs).
func (r *runner) runCounted(ctx context.Context, u *unit, side Side, trial, run int) (outcome, error) {
	b := r.builds[u.pkg][side]
	mo := measure.Options{Binary: b.bin, Dir: b.dir, Name: u.name, Pattern: u.pattern, Env: r.seedEnv(trial, run), Timeout: r.timeout, Count: r.s.Count}
	lkey := side.String() + "\x00" + u.id()
	r.mu.Lock()
	l, listed := r.cnt.listed[lkey]
	r.mu.Unlock()
	if listed {
		// Instructions after the first measurement: no normal run.
		o, err := r.countAll(ctx, u, side, mo, l.allocs, trial, run)
		o.results = append(slices.Clip(l.config), o.results...)
		o.unitsOwn(u)
		return o, err
	}
	allocs, raw, err := measure.Allocations(ctx, mo, r.s.BenchTime)
	if ctx.Err() != nil {
		return outcome{}, ctx.Err()
	}
	p := testbin.ParseOutput(raw, benchname.Top(u.name))
	o := outcome{ignored: p.Ignored, skipped: p.Skipped, started: p.Started}
	var skip *measure.SkippedError
	if errors.As(err, &skip) {
		// Nothing ran but what skipped itself (p.Skipped): no failure.
		err = nil
	}
	if err != nil {
		// A panic first, so that a report's one line shows it.
		why := err.Error()
		msg := testbin.PanicMessage(raw)
		if msg != "" {
			why = fmt.Sprintf("%s\n(%s)", msg, strings.TrimPrefix(textutil.FirstLine(why), u.name+": "))
		}
		o.fail(u, p, msg != "" || len(p.Failed) == 0, why)
		if o.unitFailed != "" {
			return o, nil
		}
	}
	failed := map[string]bool{}
	for _, f := range o.failed {
		failed[f.Name] = true
	}
	var config bytes.Buffer
	for _, l := range strings.Split(string(p.Results), "\n") {
		if k, _, ok := strings.Cut(l, ": "); ok && testConfig[k] {
			fmt.Fprintln(&config, l)
		}
	}
	var ok []measure.Allocation
	for _, a := range allocs {
		if !failed[a.Name] {
			ok = append(ok, a)
		}
	}
	if r.s.Metric == measure.Instructions && len(o.failed) == 0 {
		r.mu.Lock()
		if r.cnt.listed == nil {
			r.cnt.listed = map[string]listing{}
		}
		r.cnt.listed[lkey] = listing{allocs: ok, config: config.Bytes()}
		r.mu.Unlock()
	}
	c, err := r.countAll(ctx, u, side, mo, ok, trial, run)
	if err != nil {
		return outcome{}, err
	}
	o.failed = append(o.failed, c.failed...)
	o.skipped = append(o.skipped, c.skipped...)
	o.unitsOwn(u)
	o.results = append(slices.Clip(config.Bytes()), c.results...)
	return o, nil
}

// unitsOwn makes a failure of unit u's only benchmark the unit's.
func (o *outcome) unitsOwn(u *unit) {
	for _, f := range o.failed {
		if f.Name == u.name {
			o.unitFailed, o.failed = f.Message, nil
		}
	}
}

// countAll measures the benchmarks of allocs (a normal run's results, in
// the order they ran, Count lines each) of unit u in one version, but
// those that failed in an earlier run, and returns their result lines,
// their failures and their skips; err ends the comparison.
func (r *runner) countAll(ctx context.Context, u *unit, side Side, mo measure.Options, allocs []measure.Allocation, trial, run int) (outcome, error) {
	var o outcome
	var w bytes.Buffer
	var names []string
	byName := map[string][]measure.Allocation{}
	for _, a := range allocs {
		if u.subFailed[side][a.Name] != "" {
			continue // failed in an earlier run
		}
		if byName[a.Name] == nil {
			names = append(names, a.Name)
		}
		byName[a.Name] = append(byName[a.Name], a)
	}
	for _, name := range names {
		lines, failed, err := r.countOne(ctx, u, side, mo, name, byName[name], trial, run)
		if err != nil {
			return outcome{}, err
		}
		var skip *measure.SkippedError
		switch {
		case errors.As(failed, &skip):
			o.skipped = append(o.skipped, testbin.BenchSkip{Name: name, Message: skip.Message})
			continue
		case failed != nil:
			o.failed = append(o.failed, testbin.BenchFailure{Name: name, Message: failed.Error()})
			continue
		}
		w.Write(lines)
	}
	o.results = w.Bytes()
	return o, nil
}

// countOne measures benchmark name of unit u in one version, once per
// normal-run result in as, and returns the result lines; failed is the
// error of a measurement, which fails the benchmark (or skips it: a
// *measure.SkippedError); err ends the comparison (see [Stops]).
func (r *runner) countOne(ctx context.Context, u *unit, side Side, mo measure.Options, name string, as []measure.Allocation, trial, run int) (lines []byte, failed, err error) {
	id := benchname.ID(u.pkg, name)
	o := mo
	o.Name, o.Pattern, o.Count = name, "", 0
	o.NsPerOp, o.BytesPerOp = as[0].NsPerOp, as[0].BytesPerOp
	key := side.String() + "\x00" + id
	if r.s.Metric == measure.Instructions {
		o.Keep = filepath.Join(r.cnt.keep, side.String()+"-"+safeFile(name))
		if err := r.inspect(ctx, o, id, side); err != nil {
			return nil, nil, err
		}
	}
	// Each measurement is sized by the per-op value the last one of this
	// benchmark and version gave.
	count, lastPerOp := measure.CPUTime, &o.CPUPerOp
	if r.s.Metric == measure.Instructions {
		count, lastPerOp = measure.CountInstructions, &o.InstrPerOp
	}
	var w bytes.Buffer
	for k, a := range as {
		r.mu.Lock()
		*lastPerOp = r.cnt.perOp[key]
		r.mu.Unlock()
		if r.s.Metric == measure.Instructions {
			o.N1, o.N2 = r.pairedCounts(o, id, side, trial, run, k)
		}
		v, err := count(ctx, o)
		if err == nil && v.PerOp > 0 {
			r.mu.Lock()
			r.cnt.perOp[key], r.cnt.measuredPerOp[key] = v.PerOp, true
			r.mu.Unlock()
		}
		if stop := Stops(ctx, err); stop != nil {
			return nil, nil, stop
		}
		if err != nil {
			return nil, err, nil
		}
		if v.GuardFired {
			r.caveat(id, caveatGuard)
		}
		if v.NotCPU {
			r.caveat(id, caveatNotCPU)
		}
		if r.s.Metric == measure.Instructions {
			r.keepFuncs(side, id, trial, run, v)
		}
		perOp, unit := v.PerOp, "instructions/op"
		if r.s.Metric == measure.CPU {
			perOp, unit = v.PerOp*1e9, "cpu-ns/op"
		}
		if v.Allocs != nil {
			// Instructions: the Valgrind process's own B/op and allocs/op.
			a = *v.Allocs
		}
		fmt.Fprintf(&w, "%s\t%d\t%.2f %s\t%g B/op\t%g allocs/op\n", name, v.N2, perOp, unit, a.BytesPerOp, a.AllocsPerOp)
	}
	return w.Bytes(), nil, nil
}

// pairedCounts returns the iteration counts of measurement k of run run of
// trial trial of benchmark id under the instructions metric, the same for
// both versions: the first version to get there sizes them from its last
// measured per-operation count (measure.Options.InstructionCounts), the
// other takes them. A benchmark whose per-operation count depends on the
// iteration count (setup inside its loop, behind b.StopTimer, or inputs
// cycled by b.N) would otherwise differ between versions by the counts
// alone, and every function it runs with it. 0, 0 (the counts chosen by
// measure.CountInstructions itself, for each version, which sizes them
// again when an estimate was far off) before the first measurement.
func (r *runner) pairedCounts(o measure.Options, id string, side Side, trial, run, k int) (n1, n2 int) {
	key := fmt.Sprintf("%s\x00%d\x00%d\x00%d", id, trial, run, k)
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.cnt.counts[key]; ok {
		return c[0], c[1]
	}
	if o.InstrPerOp > 0 && r.cnt.measuredPerOp[side.String()+"\x00"+id] {
		var err error
		if n1, n2, err = o.InstructionCounts(); err != nil {
			n1, n2 = 0, 0
		}
	}
	if r.cnt.counts == nil {
		r.cnt.counts = map[string][2]int{}
	}
	r.cnt.counts[key] = [2]int{n1, n2}
	return n1, n2
}

// Stops returns the error that ends the comparison after a measurement
// under Valgrind returned err: the context's once it is done, or err when
// Valgrind is missing (every other measurement would fail alike); nil when
// the failure, if any, is the benchmark's own, which the caller records.
func Stops(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, measure.ErrNoValgrind):
		return err
	}
	return nil
}

// inspect runs measure.Inspect once per benchmark and version, for the
// reasons a benchmark is less stable, which become its caveats, and the
// Callgrind file with its call graph.
func (r *runner) inspect(ctx context.Context, o measure.Options, id string, side Side) error {
	key := side.String() + "\x00" + id
	r.mu.Lock()
	done := r.cnt.inspected[key]
	r.cnt.inspected[key] = true
	r.mu.Unlock()
	if done {
		return nil
	}
	in, err := measure.Inspect(ctx, o)
	if stop := Stops(ctx, err); stop != nil {
		return stop
	}
	var skip *measure.SkippedError
	if errors.As(err, &skip) {
		// It skipped itself (after its first run, say): the
		// measurements that follow say so, and there is no call graph
		// to miss.
		return nil
	}
	if err != nil {
		r.mu.Lock()
		r.note(fmt.Sprintf("%s (%s): could not read its call graph: %s", id, side, textutil.FirstLine(err.Error())))
		r.mu.Unlock()
		return nil
	}
	for _, why := range in.LessStable {
		r.caveat(id, "less stable: "+why)
	}
	// The estimate chooses the first measurement's counts; each
	// measurement then refines it.
	r.mu.Lock()
	if r.cnt.perOp[key] == 0 {
		r.cnt.perOp[key] = in.InstrPerOp
	}
	r.mu.Unlock()
	return nil
}

// caveat records a caveat of benchmark id once.
func (r *runner) caveat(id, c string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Contains(r.caveats[id], c) {
		r.caveats[id] = append(r.caveats[id], c)
	}
}

// safeFile turns a benchmark name into a file name: separators and
// anything outside letters, digits, '-', '_' and '.' become '_', at most
// 100 bytes.
func safeFile(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	if len(b) > 100 {
		b = b[:100]
	}
	s := string(b)
	if strings.Trim(s, ".") == "" {
		s = "_" + s
	}
	return s
}

// checkMetric checks that the metric can be measured on this machine.
func checkMetric(s Schedule) error {
	if s.Metric == measure.Instructions {
		if _, err := measure.FindValgrind(""); err != nil {
			return FieldSettingsMetric.Errorf("%w", err)
		}
	}
	return nil
}
