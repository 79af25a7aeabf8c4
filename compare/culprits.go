package compare

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/statedir"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/internal/tmpdir"
	"github.com/mbopt/mbopt/relevance/measure"
)

// CulpritDir is the directory, in the output directory, of the profiles
// that explain the changes: for each explained benchmark, its two
// per-operation profiles "<name>.base.pprof" and "<name>.head.pprof"
// (Result.Profiles) and, with the instructions metric, the Valgrind files
// they were made from.
const CulpritDir = "culprits"

// MaxCulprits bounds Result.Culprits: the functions with the largest share
// of the change. The pprof files (Result.Profiles) hold every function.
const MaxCulprits = 20

// Profiles names the two per-operation profiles of an explained benchmark,
// absolute paths: `go tool pprof -top -diff_base BASE HEAD` shows the
// per-function diff of Result.Culprits.
type Profiles struct {
	// Base is the base's profile.
	Base string `json:"base"`
	// Head is the head's profile.
	Head string `json:"head"`
}

// explains reports whether res gets culprit functions: a change in the
// comparison's metric (a definite or potential one), or a benchmark that
// Options.Explain names, compared in the metric's unit.
func (c *comparison) explains(res Result, asked bool) bool {
	if res.Status != Compared || res.Estimate == nil || res.Unit != c.s.unit() {
		return false
	}
	return asked || res.Verdict != benchstats.Unchanged
}

// culprits finds the culprit functions of the results that need them (see
// [comparison.explains]; explain are Options.Explain) and, with app, their
// application impact. A benchmark whose profiles fail gets a report note
// instead.
func (c *comparison) culprits(ctx context.Context, rep *Report, explain []string, app *callgraph.Application) error {
	asked := map[string]bool{}
	for _, n := range explain {
		asked[n] = true
	}
	found := map[string]bool{}
	dir := filepath.Join(c.raw.Out, CulpritDir)
	for i := range rep.Results {
		res := &rep.Results[i]
		ask := asked[res.Name] || asked[res.ID]
		if ask && res.Unit == c.s.unit() {
			found[res.Name], found[res.ID] = true, true
		}
		if !c.explains(*res, ask) {
			continue
		}
		if err := statedir.MkdirAll(dir); err != nil {
			return fmt.Errorf("cannot create the culprits directory %s: %v", dir, err)
		}
		err := c.explain(ctx, res, dir, app)
		if stop := engine.Stops(ctx, err); stop != nil {
			return stop
		}
		if err != nil {
			c.note(fmt.Sprintf("%s: no culprit functions: %s", res.ID, textutil.FirstLine(err.Error())))
		}
	}
	for _, n := range explain {
		if !found[n] {
			c.note(fmt.Sprintf("explain %s: no benchmark of that name or id was compared in %s, so it has no culprit functions", n, c.s.unit()))
		}
	}
	return nil
}

// CPUProfiles is the number of CPU profiles per version that explain a
// change with the time and cpu metrics: a function's change is told from
// its noise by their spread.
const CPUProfiles = 5

// An Explained says how a result's culprit functions were found (see
// culprit.Explain): from how many per-function profiles, how many
// functions moved, and how many of those only within their noise.
type Explained struct {
	// Measurements counts the per-function profiles of the base and the
	// head: with the instructions metric every measurement of the
	// comparison, with time and cpu [CPUProfiles] CPU profiles each.
	Measurements [2]int `json:"measurements"`
	// Tested counts the functions whose values moved enough to test.
	Tested int `json:"tested"`
	// Noise counts those whose change is within their noise.
	Noise int `json:"noise"`
	// TooFew is set when a version had fewer than two profiles: no
	// function's noise could be measured, so there are no culprits.
	TooFew bool `json:"too_few,omitempty"`
}

// explain gets res's per-function profiles of both versions (with the
// instructions metric those its measurements kept, otherwise
// [CPUProfiles] CPU profiles per version at the same iteration count),
// finds the culprits and, with app, the application impact, and writes the
// two versions' last profiles to dir.
func (c *comparison) explain(ctx context.Context, res *Result, dir string, app *callgraph.Application) error {
	bins, ok := c.raw.Binaries(res.Package, res.Name)
	if !ok {
		return fmt.Errorf("no unit ran it")
	}
	file := filepath.Join(dir, benchname.UniqueFileName(res.ID, res.ID, 100))
	var ms [2]culprit.Measurements
	var last [2]*culprit.Profile
	minDelta := 0.0
	if c.s.Metric == measure.Instructions {
		minDelta = 0.5 // below it, the rounding of two counts
		for _, side := range []Side{Base, Head} {
			var err error
			if ms[side], last[side], err = c.raw.FuncProfiles(side, res.ID); err != nil {
				return err
			}
		}
	} else {
		var err error
		if ms, last, err = c.cpuProfiles(ctx, bins, res); err != nil {
			return err
		}
	}
	opt := culprit.Options{
		App: app, Confidence: c.s.Confidence, Resamples: c.s.Resamples, MinDelta: minDelta,
		// The seed of the benchmark's own estimate (Analyze): the same
		// draws of trials, runs and measurements.
		Seed:      c.s.Seed ^ engine.Hash(res.ID+"\x00"+res.Unit),
		Benchmark: res.Estimate, Changed: res.Verdict != benchstats.Unchanged,
	}
	if res.Impact != nil {
		opt.BenchmarkShare = res.Impact.Attributed
	}
	d, a := culprit.Explain(ms[Base], ms[Head], opt)
	res.Culprits = d.Culprits[:min(len(d.Culprits), MaxCulprits)]
	res.Explained = &Explained{Measurements: [2]int{ms[Base].Len(), ms[Head].Len()}, Tested: d.Tested, Noise: d.Noise, TooFew: d.TooFew}
	res.AppImpact = a
	res.Profiles = &Profiles{Base: file + ".base.pprof", Head: file + ".head.pprof"}
	for side, path := range []string{res.Profiles.Base, res.Profiles.Head} {
		var buf bytes.Buffer
		if err := last[side].WritePprof(&buf); err != nil {
			return err
		}
		if err := atomicfile.WriteFile(path, buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// cpuProfiles takes [CPUProfiles] CPU profiles of res's benchmark per
// version, the versions alternating, each at the same iteration count
// (about a second of the base's time), and returns them per operation as
// one trial each, with the last of each version; bins are the test
// binaries of the unit that ran it.
func (c *comparison) cpuProfiles(ctx context.Context, bins [2]engine.Binary, res *Result) (ms [2]culprit.Measurements, last [2]*culprit.Profile, err error) {
	opts := func(side Side) measure.Options {
		b := bins[side]
		return measure.Options{Binary: b.Path, Dir: b.Dir, Name: res.Name, Env: c.raw.Env(), Timeout: c.raw.Timeout()}
	}
	o := opts(Base)
	o.NsPerOp = res.Estimate.BaseMedian * 1e9 // sec/op or cpu-sec/op
	_, n, err := o.Counts(measure.ProfileTarget)
	if err != nil {
		return ms, last, err
	}
	n = max(2, n/2)
	// A directory an interrupt or a killed run does not leave behind.
	tmp, removeTmp, err := tmpdir.Make("mbopt-culprit-")
	if err != nil {
		return ms, last, err
	}
	defer removeTmp()
	for k := range CPUProfiles {
		sides := []Side{Base, Head}
		if k%2 == 1 {
			sides = []Side{Head, Base}
		}
		for _, side := range sides {
			o := opts(side)
			o.N1, o.N2 = max(2, n/5), n
			raw := filepath.Join(tmp, side.String()+".pprof")
			if _, err := measure.CPUProfile(ctx, o, raw); err != nil {
				return ms, last, err
			}
			p, err := readCPUProfile(raw, n+1) // b.N = 1 runs before n
			if err != nil {
				return ms, last, err
			}
			ms[side] = append(ms[side], [][]map[string]float64{{p.Funcs()}})
			last[side] = p
		}
	}
	return ms, last, nil
}

// readCPUProfile reads a Go CPU profile of ops operations as a
// per-operation profile.
func readCPUProfile(path string, ops int) (*culprit.Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return culprit.FromCPUProfile(p, ops)
}
