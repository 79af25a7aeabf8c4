package bisect

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/tmpdir"
	"github.com/mbopt/mbopt/relevance/measure"
)

// This file measures one step of the search: a comparison of a commit
// against the good one, and the explaining comparison at the end.

// measureAt measures commit against good with step at the rep-th
// repetition (twice the trials each time) and appends the step to res; a
// skipped step is recorded in res.Skipped too.
func measureAt(ctx context.Context, o Options, step measureFunc, good, commit string, rep int, res *Result) (Step, error) {
	trials := o.Settings.Trials
	if trials == 0 {
		trials = compare.DefaultTrials
	}
	st, id, err := step(ctx, o, good, commit, trials<<rep, o.Settings.Seed+uint64(len(res.Steps)))
	if err != nil {
		return st, err
	}
	if id != "" {
		res.Bench = id
	}
	if st.Decision == Skip {
		res.Skipped = append(res.Skipped, Skipped{Commit: commit, Reason: st.Reason})
	}
	res.Steps = append(res.Steps, st)
	return st, nil
}

// A buildFailure is a step's revision whose package of the benchmark does
// not build: good (compare.Base) or the commit measured (compare.Head).
type buildFailure struct {
	side compare.Side
	msg  string
}

func (e *buildFailure) Error() string { return "does not build: " + firstLine(e.msg) }

// compareStep is the measureFunc of [Run]: one run of package engine,
// judged by package compare (compare.Judge), of the benchmark alone, with
// good as the base and commit as the head, whose raw files go to a
// temporary directory removed afterwards. A
// missing or failing benchmark is a Skip step; a revision whose package of
// the benchmark does not build is a *buildFailure error, returned once
// both revisions are built and the benchmark is found in the other one,
// before anything is measured.
func compareStep(ctx context.Context, o Options, good, commit string, trials int, seed uint64) (Step, string, error) {
	s := o.Settings
	s.Trials, s.Seed = trials, seed
	st := Step{Commit: commit, Trials: s.Trials}
	tmp, removeTmp, err := tmpdir.Make("mbopt-bisect-")
	if err != nil {
		return st, "", err
	}
	defer removeTmp()
	var (
		mu     sync.Mutex
		failed [2]map[string]string // by side, package: the build error
		broke  *buildFailure
	)
	progress := func(ev compare.Event) {
		if o.CompareProgress != nil {
			o.CompareProgress(ev)
		}
		mu.Lock()
		defer mu.Unlock()
		if side := ev.Side; ev.Kind == compare.EventBuild && ev.Err != nil && (side == compare.Base || side == compare.Head) {
			if failed[side] == nil {
				failed[side] = map[string]string{}
			}
			failed[side][ev.Package] = ev.Err.Error()
		}
	}
	// The benchmark listed in one revision only, once both are built and
	// before anything runs: its package did not build in the other.
	planned := func(tops []engine.Benchmark) error {
		mu.Lock()
		defer mu.Unlock()
		for _, b := range tops {
			if b.Name != benchname.Top(o.Bench) {
				continue
			}
			for side, pkgs := range failed {
				if msg, ok := pkgs[b.Package]; ok {
					broke = &buildFailure{side: compare.Side(side), msg: msg}
					return broke
				}
			}
		}
		return nil
	}
	rep2, err := measureStep(ctx, engine.Plan{
		Dir: o.Dir, Base: good, Head: commit,
		Bench: benchname.Pattern([]string{o.Bench}), Packages: o.Packages,
		GoCmd: o.GoCmd, Env: o.Env, BuildFlags: o.BuildFlags, CacheDir: o.CacheDir,
		Out:      filepath.Join(tmp, "out"),
		Progress: progress, Planned: planned,
	}, s)
	mu.Lock()
	defer mu.Unlock()
	if broke != nil && ctx.Err() == nil {
		return st, "", broke
	}
	if err != nil {
		return st, "", err
	}
	st.Subject = rep2.Head.Subject
	// The benchmark's result in the metric's unit (the counting metrics
	// compare B/op and allocs/op too), else its first result, which says
	// why it was not compared.
	unit := s.Metric.Unit()
	if s.Metric == "" {
		unit = measure.Time.Unit()
	}
	var r *compare.Result
	for i := range rep2.Results {
		if x := &rep2.Results[i]; x.Name == o.Bench && (r == nil || x.Unit == unit && r.Unit != unit) {
			r = x
		}
	}
	id := ""
	switch {
	case r == nil:
		st.Decision, st.Reason = Skip, "the benchmark is in neither revision"
	case r.Status == compare.Compared && r.Estimate != nil:
		id = r.ID
		st.Change, st.Low, st.High, st.Unit = r.Estimate.Change, r.Estimate.CI.Low, r.Estimate.CI.High, r.Unit
		if math.IsNaN(st.Change) {
			st.Decision, st.Reason = Skip, "no estimate"
		}
	case r.Status == compare.Removed:
		st.Decision, st.Reason = Skip, "the commit lacks the benchmark"
	case r.Status == compare.BuildFailed:
		side := compare.Head
		if r.Side == compare.Base.String() {
			side = compare.Base
		}
		return st, "", &buildFailure{side: side, msg: r.Error}
	default:
		st.Decision, st.Reason = Skip, fmt.Sprintf("%s: %s", r.Status, firstLine(r.Error))
	}
	return st, id, nil
}

// measureStep runs the engine on plan with the schedule of s and judges
// its raw results: the verdicts only, for a step needs no culprit
// functions (only the found commit's comparison, [explain], asks for
// them), and profiles at each step would cost a run per version.
func measureStep(ctx context.Context, plan engine.Plan, s compare.Settings) (*compare.Report, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	plan.Schedule = s.Schedule()
	raw, err := engine.Run(ctx, plan)
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	return compare.Judge(raw, s, compare.Relevance{})
}

// explain compares res.LastGood with res.FirstBad, asking compare for the
// benchmark's culprit functions.
func explain(ctx context.Context, o Options, res *Result) (*compare.Report, error) {
	s := o.Settings
	if s.Trials == 0 {
		s.Trials = compare.DefaultTrials
	}
	return compare.Run(ctx, compare.Options{
		Dir: o.Dir, Base: res.LastGood, Head: res.FirstBad,
		Bench: benchname.Pattern([]string{o.Bench}), Packages: o.Packages, Explain: []string{o.Bench},
		Settings: s, GoCmd: o.GoCmd, Env: o.Env, BuildFlags: o.BuildFlags, CacheDir: o.CacheDir,
	})
}

// beyond reports whether the reference step's interval lies wholly beyond
// ±threshold (compare.DefaultThreshold when 0): a change to locate.
func beyond(ref Step, threshold float64) bool {
	if threshold <= 0 {
		threshold = compare.DefaultThreshold
	}
	return ref.Low > threshold || ref.High < -threshold
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
