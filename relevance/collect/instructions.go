package collect

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mbopt/mbopt/internal/opprof"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/measure"
)

// This file holds what Collect does differently with Source instructions:
// each benchmark runs under Valgrind (package measure's Cachegrind runs,
// at TimedLowBenchTime and at the benchtime), and package opprof turns
// Valgrind's output files into a pprof profile of instructions per
// function. Building, discovery, scheduling and resuming are shared.

// instrMinPerOp is the least a function must add per operation to be part
// of a timed profile: half an instruction, so that every function kept
// rounds to at least one instruction in the pprof file (a function that
// grows by less runs once every few operations at most, or is noise).
const instrMinPerOp = 0.5

// instrOne runs unit u under Valgrind at TimedLowBenchTime and at the
// benchtime and writes its instruction profile: with Scope timed each
// function's instructions per operation from the difference of the two
// runs (opprof.Instructions; setup and validation cancel out), with Scope
// all the run at the benchtime as it is (opprof.Whole). It returns false
// when ctx was canceled before the runs ended.
func (c *collector) instrOne(ctx context.Context, u unit) (unitResult, bool) {
	e := c.entry(u.b, u.name)
	file := manifest.ProfileName(c.m.Module, e.Package, e.Name)
	low, _ := iterations(TimedLowBenchTime)
	high, _ := iterations(c.cfg.EffectiveBenchTime())
	keep, err := os.MkdirTemp(filepath.Join(c.out, binDir), "vg-")
	if err != nil {
		e.Status, e.Error = manifest.StatusFailed, "creating the Valgrind directory: "+err.Error()
		return unitResult{Entry: e}, true
	}
	defer os.RemoveAll(keep)
	o := measure.Options{Binary: u.b.bin, Dir: u.b.pkg.Dir, Name: u.name, Env: c.cfg.env(), N1: low, N2: high,
		Keep: filepath.Join(keep, "run"), Timeout: c.cfg.timeout()}
	var v measure.Value
	start := time.Now()
	c.track(PhaseMeasurement, u.b.pkg.Path, u.name, func() procResult {
		v, err = measure.CountInstructions(ctx, o)
		return procResult{}
	})
	e.WallSeconds = time.Since(start).Seconds()
	if ctx.Err() != nil {
		return unitResult{}, false
	}
	if err == nil {
		err = c.writeInstructions(v, file, &e)
	}
	var skip *measure.SkippedError
	if err != nil {
		e.Status, e.Error = manifest.StatusFailed, shorten(err.Error())
		if errors.As(err, &skip) {
			// The benchmark skipped itself (b.Skip): skipped, with what
			// it logged, as a CPU profile's run records it.
			e.Status, e.Error = manifest.StatusSkipped, shorten(cmp.Or(skip.Message, skip.Error()))
		}
		e.Log = c.writeLog(logBase(c.m.Module, e), "valgrind --tool=cachegrind "+u.b.bin+" -test.bench "+u.name, []byte(err.Error()))
	}
	return unitResult{Entry: e}, true
}

// writeInstructions turns the Valgrind output files of measurement v (the
// lower count first) into the instruction profile of Scope, writes it to
// file in Out atomically as a pprof profile and records it in e.
func (c *collector) writeInstructions(v measure.Value, file string, e *manifest.Entry) error {
	if len(v.Files) != 2 {
		return fmt.Errorf("valgrind left %d output files, want 2", len(v.Files))
	}
	r := opprof.NewResolver()
	var p *opprof.Profile
	var err error
	if c.cfg.timed() {
		p, err = opprof.Instructions(r, v.Files[0], v.Files[1], v.N1, v.N2)
	} else {
		p, err = opprof.Whole(r, v.Files[1])
	}
	if err != nil {
		return err
	}
	p = p.PerFunction(instrMinPerOp)
	sum, err := c.writeRecorded(file, "the instruction profile", p.WritePprof)
	if err != nil {
		return err
	}
	e.Status, e.Profile, e.Samples, e.ProfileSHA256 = manifest.StatusOK, file, len(p.Samples), sum
	return nil
}

// noValgrind is measure.ErrNoValgrind (errors.Is matches it) worded for a
// collection, whose other sources are the way out.
type noValgrind struct{}

func (noValgrind) Error() string {
	return fmt.Sprintf("valgrind is not in PATH; install it (Debian/Ubuntu: apt-get install valgrind, the package valgrind), or collect with source %s, whose timed scope needs no Valgrind", manifest.SourceCover)
}

func (noValgrind) Is(target error) bool { return target == measure.ErrNoValgrind }
