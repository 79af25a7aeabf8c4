package collect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// This file holds what Collect does differently with Source cover: the
// test binaries are built with coverage, and each benchmark's run leaves a
// function set instead of a CPU profile. Everything else (discovery,
// scheduling, timeouts, faults, resuming by test binary hash) is shared.

// coverFlags returns the go test -c flags of the mode: -cover and
// -coverpkg=<main module>/... with Source cover, so every package of the
// module is instrumented, whichever package's benchmark runs; none for
// profiles.
func (c *collector) coverFlags() []string {
	switch {
	case !c.cfg.cover():
		return nil
	case c.cfg.timed():
		// Counts, and exact ones even when goroutines of a benchmark
		// (b.RunParallel) run the same code at once.
		return []string{"-cover", "-covermode=atomic", "-coverpkg=" + c.m.Module + "/..."}
	}
	return []string{"-cover", "-coverpkg=" + c.m.Module + "/..."}
}

// checkScope checks Config.Scope, and the benchtime of the timed scope:
// an iteration count above TimedLowBenchTime's, since the scope compares
// two counts (a duration runs the benchmark function, setup and all, once
// per b.N that go test tries, so setup would grow too).
func checkScope(cfg Config) error {
	switch cfg.Scope {
	case "", manifest.ScopeTimed, manifest.ScopeAll:
	default:
		return FieldScope.Errorf("unknown scope %q: valid values are {%s|%s}", cfg.Scope, manifest.ScopeTimed, manifest.ScopeAll)
	}
	if !cfg.timed() && !cfg.instructions() {
		return nil
	}
	if !cfg.cover() && !cfg.instructions() {
		return FieldScope.Errorf("scope %q needs Source %q or %q: a sampled CPU profile cannot tell a benchmark's timed loop from its setup; collect function sets or instruction profiles, or use scope %q", manifest.ScopeTimed, manifest.SourceCover, manifest.SourceInstructions, manifest.ScopeAll)
	}
	low, _ := iterations(TimedLowBenchTime)
	if n, ok := iterations(cfg.EffectiveBenchTime()); !ok || n <= low {
		what := fmt.Sprintf("with scope %q: the timed scope", manifest.ScopeTimed)
		if cfg.instructions() {
			what = fmt.Sprintf("with source %q: Valgrind", manifest.SourceInstructions)
		}
		return FieldBenchTime.Errorf("benchtime %q %s compares a run at %s with one at a larger iteration count, such as %s; give a count above %d (not a duration, which repeats a benchmark's setup at every b.N go test tries)", cfg.EffectiveBenchTime(), what, TimedLowBenchTime, DefaultTimedBenchTime, low)
	}
	return nil
}

// sourceName names what a collection of source src records, for messages.
func sourceName(src manifest.Source) string {
	switch src {
	case manifest.SourceCover:
		return "function sets (Source cover)"
	case manifest.SourceInstructions:
		return "instruction profiles (Source instructions)"
	}
	return "CPU profiles (Source profile)"
}

// iterations returns N of a benchtime "Nx".
func iterations(benchtime string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSuffix(benchtime, "x"))
	return n, err == nil && strings.HasSuffix(benchtime, "x") && n > 0
}

// checkSource refuses an Out whose manifest records the other source, or
// function sets of the other scope, so profiles and function sets, and
// sets of timed loops and of whole runs, never mix in one manifest; Force
// replaces that manifest instead. A manifest that cannot be read is left to
// loadPrevious, which replaces it.
func (c *collector) checkSource() error {
	if c.cfg.Force {
		return nil
	}
	prev, err := manifest.Load(c.out)
	if err != nil || prev.Module != c.m.Module || len(prev.Benchmarks) == 0 {
		return nil
	}
	if sourceName(prev.Source) != sourceName(c.m.Source) {
		return FieldSource.Errorf("output directory %s holds %s, and this run collects %s; the two never mix in one directory: collect into another directory, or set Force to replace them", c.cfg.Out, sourceName(prev.Source), sourceName(c.m.Source))
	}
	if prev.IsTimed() != c.m.IsTimed() {
		what := "function sets"
		if c.m.IsInstructions() {
			what = "instruction profiles"
		}
		name := func(timed bool) string {
			if timed {
				return what + " of timed loops (Scope timed)"
			}
			return what + " of whole runs (Scope all)"
		}
		return FieldScope.Errorf("output directory %s holds %s, and this run collects %s; the two never mix in one directory: collect into another directory, or set Force to replace them", c.cfg.Out, name(prev.IsTimed()), name(c.m.IsTimed()))
	}
	return nil
}

// coverOne runs unit u alone with its coverage counters written to a
// directory of its own, and records the functions that ran: once at the
// benchtime with Scope all; with Scope timed, at the benchtime and again at
// TimedLowBenchTime, recording the functions whose counters grew. It
// returns false when ctx was canceled before the runs ended.
func (c *collector) coverOne(ctx context.Context, u unit) (unitResult, bool) {
	e := c.entry(u.b, u.name)
	file := manifest.FunctionsName(c.m.Module, e.Package, e.Name)
	benchtimes := []string{c.cfg.EffectiveBenchTime()}
	if c.cfg.timed() {
		benchtimes = append(benchtimes, TimedLowBenchTime)
	}
	var dirs []string
	var command string // of the first run, for the log
	var output []byte
	for i, bt := range benchtimes {
		covdir, err := os.MkdirTemp(filepath.Join(c.out, binDir), "cov-")
		if err != nil {
			e.Status, e.Error = manifest.StatusFailed, "creating the coverage directory: "+err.Error()
			return unitResult{Entry: e}, true
		}
		defer os.RemoveAll(covdir)
		args := append(c.unitArgs(u), "-test.benchtime", bt, "-test.count", "1", "-test.v", "-test.gocoverdir", covdir)
		r := c.track(PhaseMeasurement, u.b.pkg.Path, u.name, func() procResult {
			return runProcess(ctx, u.b.pkg.Dir, c.cfg.env(), c.cfg.timeout(), u.b.bin, args...)
		})
		if ctx.Err() != nil {
			return unitResult{}, false
		}
		if i == 0 && hasSubs(u, r.Output) {
			return unitResult{subs: true}, true
		}
		if i == 0 {
			command, output = u.b.bin+" "+strings.Join(args, " "), r.Output
		}
		judged := &e
		if i > 0 {
			low := c.entry(u.b, u.name) // the entry keeps the first run's results
			judged = &low
		}
		if !c.judge(judged, r, u.name) {
			if i > 0 {
				e.Status, e.Error = judged.Status, fmt.Sprintf("in the run at %s, which scope %s compares with the run at %s: %s", bt, manifest.ScopeTimed, benchtimes[0], judged.Error)
			}
			e.Log = c.writeLog(logBase(c.m.Module, e), u.b.bin+" "+strings.Join(args, " "), r.Output)
			return unitResult{Entry: e}, true
		}
		dirs = append(dirs, covdir)
	}
	if err := c.writeSet(ctx, dirs, file, &e); err != nil {
		if ctx.Err() != nil {
			return unitResult{}, false
		}
		e.Status, e.Error = manifest.StatusFailed, err.Error()
		e.Log = c.writeLog(logBase(c.m.Module, e), command, output)
	}
	return unitResult{Entry: e}, true
}

// writeSet turns the coverage data in dirs (one directory, or with Scope
// timed the run at the benchtime, then the run at TimedLowBenchTime) into
// a function set, writes it to file in Out atomically and records it in
// e.
func (c *collector) writeSet(ctx context.Context, dirs []string, file string, e *manifest.Entry) error {
	opts := covdata.Options{Dir: c.modDir, GoCmd: c.cfg.goCmd(), Env: c.cfg.Env, BuildFlags: c.cfg.buildFlags(), Index: c.cov}
	set, err := func() (*covdata.Set, error) {
		counts, err := covdata.ReadCounters(dirs[0])
		if err != nil {
			return nil, err
		}
		if len(dirs) > 1 {
			low, err := covdata.ReadCounters(dirs[1])
			if err != nil {
				return nil, err
			}
			counts = counts.Grown(low)
		}
		return covdata.FromCounters(ctx, counts, dirs[0], opts)
	}()
	switch {
	case errors.Is(err, covdata.ErrNoData) && e.Iterations > 0:
		// The benchmark reported a result, so it ended normally: the test
		// binary instruments no statement of the module (a package of
		// tests only, or of declarations only), and no module function ran.
		set = &covdata.Set{}
	case err != nil:
		return fmt.Errorf("reading the coverage data: %w (does TestMain call m.Run, or does the benchmark call os.Exit?)", err)
	}
	set.Timed = c.cfg.timed()
	sum, err := c.writeRecorded(file, "the function set", set.Write)
	if err != nil {
		return err
	}
	e.Status, e.Functions, e.FunctionsSHA256 = manifest.StatusOK, file, sum
	return nil
}
