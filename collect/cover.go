package collect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/covdata"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/manifest"
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
	if !c.cfg.cover() {
		return nil
	}
	return []string{"-cover", "-coverpkg=" + c.m.Module + "/..."}
}

// checkSource refuses an Out whose manifest records the other source, so
// profiles and function sets never mix in one manifest; Force replaces
// that manifest instead. A manifest that cannot be read is left to
// loadPrevious, which replaces it.
func (c *collector) checkSource() error {
	if c.cfg.Force {
		return nil
	}
	prev, err := manifest.Load(c.out)
	if err != nil || prev.Module != c.m.Module || prev.IsCover() == c.cfg.cover() || len(prev.Benchmarks) == 0 {
		return nil
	}
	name := func(cover bool) string {
		if cover {
			return "function sets (Source cover)"
		}
		return "CPU profiles (Source profile)"
	}
	return inputErrorf("Source", "output directory %s holds %s, and this run collects %s; the two never mix in one directory: collect into another directory, or set Force to replace them", c.cfg.Out, name(prev.IsCover()), name(c.cfg.cover()))
}

// coverOne runs unit u alone, once, with its coverage counters written to a
// directory of its own, and records the functions that ran. It returns
// false when ctx was canceled before the run ended.
func (c *collector) coverOne(ctx context.Context, u unit) (unitResult, bool) {
	e := c.entry(u.b, u.name)
	file := manifest.FunctionsName(c.m.Module, e.Package, e.Name)
	covdir, err := os.MkdirTemp(filepath.Join(c.out, binDir), "cov-")
	if err != nil {
		e.Status, e.Error = manifest.StatusFailed, "creating the coverage directory: "+err.Error()
		return unitResult{Entry: e}, true
	}
	defer os.RemoveAll(covdir)
	args := append(c.unitArgs(u), "-test.benchtime", c.cfg.benchTime(), "-test.count", "1", "-test.v", "-test.gocoverdir", covdir)
	r := runProcess(ctx, u.b.pkg.Dir, c.cfg.env(), c.cfg.timeout(), u.b.bin, args...)
	if ctx.Err() != nil {
		return unitResult{}, false
	}
	if hasSubs(u, r.Output) {
		return unitResult{subs: true}, true
	}
	if c.judge(&e, r, u.name) {
		if err := c.writeSet(ctx, covdir, file, &e); err != nil {
			if ctx.Err() != nil {
				return unitResult{}, false
			}
			e.Status, e.Error = manifest.StatusFailed, err.Error()
		}
	}
	if e.Status != manifest.StatusOK {
		e.Log = c.writeLog(logBase(c.m.Module, e), u.b.bin+" "+strings.Join(args, " "), r.Output)
	}
	return unitResult{Entry: e}, true
}

// writeSet turns the coverage data in covdir into a function set, writes
// it to file in Out atomically and records it in e.
func (c *collector) writeSet(ctx context.Context, covdir, file string, e *manifest.Entry) error {
	set, err := covdata.Load(ctx, covdir, covdata.Options{Dir: c.modDir, GoCmd: c.cfg.goCmd(), Env: c.cfg.Env, BuildFlags: c.cfg.buildFlags(), Index: c.cov})
	switch {
	case errors.Is(err, covdata.ErrNoData) && e.Iterations > 0:
		// The benchmark reported a result, so it ended normally: the test
		// binary instruments no statement of the module (a package of
		// tests only, or of declarations only), and no module function ran.
		set = &covdata.Set{}
	case err != nil:
		return fmt.Errorf("reading the coverage data: %w (does TestMain call m.Run, or does the benchmark call os.Exit?)", err)
	}
	path := filepath.Join(c.out, file)
	if err := atomicfile.Write(path, func(w io.Writer) error { return set.Write(w) }); err != nil {
		return fmt.Errorf("writing the function set: %w", err)
	}
	hash, err := hashFile(path)
	if err != nil {
		return err
	}
	e.Status, e.Functions = manifest.StatusOK, file
	e.FunctionsSHA256 = strings.TrimPrefix(hash, "sha256:")
	return nil
}
