package collect

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// This file profiles one unit in a process of its own (Source cpu),
// judges how a unit's run ended, and reuses a previous collection's entry
// when nothing changed.

// statusOf returns the status of a process that crashed.
func statusOf(r procResult) manifest.Status {
	if r.TimedOut {
		return manifest.StatusTimeout
	}
	return manifest.StatusFailed
}

// reusable returns the previous entry for u when it was taken with the
// same test binary and benchtime and either its profile is complete and
// unchanged (the file's hash is the recorded one) or it failed, timed out
// or skipped and cfg.RetryFailed is off.
func (c *collector) reusable(u unit) (manifest.Entry, bool) {
	e, ok := c.prev[benchname.ID(u.b.pkg.Path, u.name)]
	if !ok || e.TestBinary != u.b.hash || e.BenchTime != c.cfg.EffectiveBenchTime() {
		return manifest.Entry{}, false
	}
	switch e.Status {
	case manifest.StatusOK:
		file, sum := e.Profile, e.ProfileSHA256
		if c.cfg.cover() {
			file, sum = e.Functions, e.FunctionsSHA256
		}
		if file == "" || sum == "" {
			return manifest.Entry{}, false
		}
		if h, err := hashFile(filepath.Join(c.out, file)); err != nil || h != "sha256:"+sum {
			return manifest.Entry{}, false
		}
	case manifest.StatusFailed, manifest.StatusTimeout:
		if c.cfg.RetryFailed {
			return manifest.Entry{}, false
		}
	case manifest.StatusSkipped:
	default:
		return manifest.Entry{}, false
	}
	e.Dir = u.b.dir
	return e, true
}

// profile runs unit u alone with a CPU profile. It returns false when ctx
// was canceled before the run ended.
func (c *collector) profile(ctx context.Context, u unit) (unitResult, bool) {
	e := c.entry(u.b, u.name)
	file := manifest.ProfileName(c.m.Module, e.Package, e.Name)
	f, err := atomicfile.Create(filepath.Join(c.out, file))
	if err != nil {
		e.Status, e.Error = manifest.StatusFailed, "creating the profile file: "+err.Error()
		return unitResult{Entry: e}, true
	}
	defer f.Cleanup()
	f.Close() // the test binary writes it by name
	args := append(c.unitArgs(u), "-test.benchtime", c.cfg.EffectiveBenchTime(), "-test.count", "1", "-test.v", "-test.cpuprofile", f.Name())
	r := c.track(PhaseMeasurement, u.b.pkg.Path, u.name, func() procResult {
		return runProcess(ctx, u.b.pkg.Dir, c.cfg.env(), c.cfg.timeout(), u.b.bin, args...)
	})
	if ctx.Err() != nil {
		return unitResult{}, false
	}
	if hasSubs(u, r.Output) {
		return unitResult{subs: true}, true
	}
	if c.judge(&e, r, u.name) {
		p, err := readProfile(f.Name())
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, os.ErrNotExist):
			e.Status, e.Error = manifest.StatusFailed, "no profile written (does TestMain call m.Run, or does the benchmark call os.Exit?)"
		case err != nil:
			e.Status, e.Error = manifest.StatusFailed, "profile unreadable: "+err.Error()
		default:
			hash, herr := hashFile(f.Name())
			if herr == nil {
				herr = f.Commit()
			}
			if herr != nil {
				e.Status, e.Error = manifest.StatusFailed, herr.Error()
				break
			}
			e.Status, e.Profile, e.Samples = manifest.StatusOK, file, len(p.Sample)
			e.ProfileSHA256 = strings.TrimPrefix(hash, "sha256:")
		}
	}
	if e.Status != manifest.StatusOK {
		e.Log = c.writeLog(logBase(c.m.Module, e), u.b.bin+" "+strings.Join(args, " "), r.Output)
	}
	return unitResult{Entry: e}, true
}

// judge sets e's status, error and results from the run r of benchmark
// name, and reports whether the run succeeded, leaving the status to the
// caller, who must still check what the run wrote.
func (c *collector) judge(e *manifest.Entry, r procResult, name string) bool {
	e.WallSeconds = r.Wall.Seconds()
	if res, ok := findResult(parseResults(r.Output), name); ok {
		e.NsPerOp, e.Iterations = res.nsPerOp, res.iterations
	}
	t := parseTrace(r.Output, name)
	switch {
	case crashed(r):
		e.Status, e.Error = statusOf(r), crashMessage(r, t.running(name), c.cfg.timeout())
	case r.Err != nil:
		e.Status = manifest.StatusFailed
		if e.Error = failBlock(r.Output, "FAIL", name); e.Error == "" {
			e.Error = crashMessage(r, t.running(name), c.cfg.timeout())
		}
	case t.skipped[name] && e.Iterations == 0:
		e.Status, e.Error = manifest.StatusSkipped, failBlock(r.Output, "SKIP", name)
	default:
		return true
	}
	return false
}

// readProfile parses the profile in file.
func readProfile(file string) (*profile.Profile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, io.EOF
	}
	return profile.ParseData(data)
}
