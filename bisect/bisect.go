// Package bisect finds the commit that introduced a change in one
// benchmark: a binary search over the first-parent commits between a good
// and a bad revision, each commit measured against good with package
// compare's engine (every measurement in compare's own temporary git
// worktrees, so the user's worktree and index are never touched and an
// interrupt or a canceled context leaves no worktree behind).
//
// # Decisions
//
// The first step measures bad against good: its relative change d is the
// change to locate, once its whole interval lies beyond ±Settings.Threshold
// (compare's threshold, 1% by default: a few measurements of identical code
// can give a narrow interval that excludes zero by a fraction of a
// percent); when it does not (again after Options.MaxRepetitions
// measurements with twice the trials each), the change cannot be located
// and [Run] returns [ErrNotLocated]. Each later step measures a commit against good and
// decides three ways from the interval of its relative change: like good
// when the whole interval lies on good's side of d/2, or contains zero and
// excludes d; like bad when it excludes zero on the change's side and
// reaches past d/2; unknown otherwise. An unknown commit is measured
// again with twice the trials, up to Options.MaxRepetitions measurements,
// and then skipped. A commit whose package does not build, or that lacks
// the benchmark, or whose benchmark fails, is skipped too, like `git bisect
// skip`. When only skipped commits separate the last good commit from the
// first bad one, the change cannot be located to one commit: Run returns
// the result, naming the candidates, with ErrNotLocated.
package bisect

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mbopt/mbopt/benchname"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/measure"
)

// ErrNotLocated is returned when the change cannot be located: bad is not
// measurably different from good, or skipped commits hide which commit
// made the change.
var ErrNotLocated = errors.New("the change cannot be located")

// Options configure [Run].
type Options struct {
	// Dir is a directory in the module, inside a git work tree; "" means
	// the current directory.
	Dir string
	// Bench is the benchmark's full name as go test prints it.
	Bench string
	// Packages are package patterns (relative to the module root) to look
	// for the benchmark in; nil means "./...".
	Packages []string
	// Good and Bad are the revisions before and after the change; Good
	// must be a first-parent ancestor of Bad.
	Good, Bad string
	// Settings are compare's schedule and statistics for each step;
	// Settings.Metric is the metric bisected (time, cpu or
	// instructions; "" is time), and zero Count and BenchTime are
	// compare's defaults for that metric.
	Settings compare.Settings
	// MaxRepetitions bounds the measurements of one commit whose
	// decision is unknown; 0 means 3.
	MaxRepetitions int
	// GoCmd is compare.Options.GoCmd.
	GoCmd string
	// Env is compare.Options.Env.
	Env []string
	// BuildFlags is compare.Options.BuildFlags.
	BuildFlags []string
	// CacheDir is compare.Options.CacheDir: test binaries built from a
	// commit are reused across steps.
	CacheDir string
	// Progress, when set, is called after each step.
	Progress func(Step)
	// Explain, once the first bad commit is found, compares it with the
	// last good commit once more with the benchmark's culprit functions
	// (compare.Options.Explain) into Result.Explanation.
	Explain bool
}

// A Decision says which side a measured commit is like.
type Decision string

// The decisions.
const (
	// Good: the commit is like the good revision.
	Good Decision = "good"
	// Bad: the commit is like the bad revision.
	Bad Decision = "bad"
	// Unknown: the interval straddles the midpoint of the change.
	Unknown Decision = "unknown"
	// Skip: the commit does not build, lacks the benchmark, or stayed
	// unknown after every repetition.
	Skip Decision = "skip"
)

// A Step is one measurement of one commit against good.
type Step struct {
	// Commit is the full hash of the commit measured.
	Commit string `json:"commit"`
	// Subject is the commit's subject line.
	Subject string `json:"subject,omitempty"`
	// Change is the relative change against good (0.1: 10% more), with
	// its interval Low..High; zero for a skipped commit.
	Change float64 `json:"change"`
	// Low is the lower end of Change's interval.
	Low float64 `json:"low"`
	// High is the upper end of Change's interval.
	High float64 `json:"high"`
	// Trials is the number of trials of the measurement.
	Trials int `json:"trials"`
	// Unit is the measured unit, such as "sec/op".
	Unit string `json:"unit,omitempty"`
	// Decision is what the step decided.
	Decision Decision `json:"decision"`
	// Reason says why a commit was skipped.
	Reason string `json:"reason,omitempty"`
}

// A Skipped commit was not decided.
type Skipped struct {
	// Commit is the full hash.
	Commit string `json:"commit"`
	// Reason says why: a build failure, a missing benchmark, an unknown
	// decision after every repetition.
	Reason string `json:"reason"`
}

// A Result is the outcome of a bisection.
type Result struct {
	// Bench is the benchmark's id (package + "." + name).
	Bench string `json:"bench"`
	// Good is the full hash of the good endpoint.
	Good string `json:"good"`
	// Bad is the full hash of the bad endpoint.
	Bad string `json:"bad"`
	// Metric is the metric measured: time, cpu or instructions.
	Metric measure.Metric `json:"metric"`
	// FirstBad is the full hash of the first commit like bad; empty when
	// the change was not located.
	FirstBad string `json:"first_bad,omitempty"`
	// LastGood is the full hash of the last commit like good before it.
	LastGood string `json:"last_good,omitempty"`
	// Candidates are the commits that may have made the change when
	// skipped commits hide which (first-parent order).
	Candidates []string `json:"candidates,omitempty"`
	// Steps are the measurements in the order they ran, the first being
	// bad against good.
	Steps []Step `json:"steps"`
	// Skipped are the commits skipped.
	Skipped []Skipped `json:"skipped"`
	// Explanation, with Options.Explain, is the comparison of LastGood
	// (base) with FirstBad (head) whose result for the benchmark in the
	// metric's unit has its culprit functions (compare.Result.Culprits)
	// and the two profiles they come from (compare.Result.Profiles).
	Explanation *compare.Report `json:"explanation,omitempty"`
}

func (o Options) maxReps() int {
	if o.MaxRepetitions <= 0 {
		return 3
	}
	return o.MaxRepetitions
}

func (o Options) progress(s Step) {
	if o.Progress != nil {
		o.Progress(s)
	}
}

// Run bisects. It returns [ErrNotLocated] (with the partial result) when
// the change cannot be located, an error matching input.ErrInput for bad
// options, and ctx's error when canceled.
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Bench == "" || o.Good == "" || o.Bad == "" {
		return nil, input.Field("Bench").Errorf("bisect needs the benchmark (--bench) and the good and bad revisions (--good, --bad)")
	}
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	good, err := gitrev.Commit(ctx, dir, o.Good)
	if err != nil {
		return nil, input.Field("Good").Errorf("%w", err)
	}
	bad, err := gitrev.Commit(ctx, dir, o.Bad)
	if err != nil {
		return nil, input.Field("Bad").Errorf("%w", err)
	}
	out, err := gitrev.Git(ctx, dir, "rev-list", "--first-parent", "--reverse", good+".."+bad)
	if err != nil {
		return nil, err
	}
	commits := strings.Fields(string(out))
	if len(commits) == 0 || commits[len(commits)-1] != bad {
		return nil, input.Field("Good").Errorf("%s is not a first-parent ancestor of %s: bisect searches the first-parent commits from good to bad", o.Good, o.Bad)
	}
	res := &Result{Good: good, Bad: bad, Metric: o.Settings.Metric, Skipped: []Skipped{}}
	if res.Metric == "" {
		res.Metric = measure.Time
	}
	// The first step measures bad against good, again with more trials
	// while its interval contains zero.
	var ref Step
	for rep := 0; ; rep++ {
		if ref, err = measureAt(ctx, o, good, bad, rep, res); err != nil {
			return res, err
		}
		last := &res.Steps[len(res.Steps)-1]
		if ref.Decision == Skip {
			o.progress(*last)
			return res, fmt.Errorf("%w: %s at %s: %s", ErrNotLocated, o.Bench, short(bad), ref.Reason)
		}
		if beyond(ref, o.Settings.Threshold) {
			last.Decision = Bad
			o.progress(*last)
			break
		}
		last.Decision = Unknown
		o.progress(*last)
		if rep+1 >= o.maxReps() {
			return res, fmt.Errorf("%w: %s at %s is not measurably different from %s after %d measurements (%+.1f%%, interval %+.1f%% to %+.1f%%)", ErrNotLocated, o.Bench, short(bad), short(good), rep+1, 100*ref.Change, 100*ref.Low, 100*ref.High)
		}
	}
	mid := ref.Change / 2
	// lo is the index of the last commit known good (-1: good itself),
	// hi that of the first known bad.
	lo, hi := -1, len(commits)-1
	skipped := map[int]bool{}
	for {
		i := pick(lo, hi, skipped)
		if i < 0 {
			break
		}
		var d Decision
		for rep := 1; ; rep++ {
			st, err := measureAt(ctx, o, good, commits[i], rep-1, res)
			if err != nil {
				return res, err
			}
			d = st.Decision
			if d == Skip {
				o.progress(st)
				break
			}
			d = decide(st, mid)
			if d == Unknown && rep >= o.maxReps() {
				res.Steps[len(res.Steps)-1].Reason = fmt.Sprintf("unknown after %d measurements", rep)
				res.Skipped = append(res.Skipped, Skipped{Commit: commits[i], Reason: res.Steps[len(res.Steps)-1].Reason})
				d = Skip
			}
			res.Steps[len(res.Steps)-1].Decision = d
			o.progress(res.Steps[len(res.Steps)-1])
			if d != Unknown {
				break
			}
		}
		switch d {
		case Good:
			lo = i
		case Bad:
			hi = i
		default:
			skipped[i] = true
		}
	}
	if lo >= 0 {
		res.LastGood = commits[lo]
	} else {
		res.LastGood = good
	}
	if len(skipped) > 0 {
		for i := lo + 1; i < hi; i++ {
			if skipped[i] {
				res.Candidates = append(res.Candidates, commits[i])
			}
		}
	}
	if len(res.Candidates) > 0 {
		res.Candidates = append(res.Candidates, commits[hi])
		return res, fmt.Errorf("%w: only skipped commits lie between %s (good) and %s (bad); the first bad commit is one of %d", ErrNotLocated, short(res.LastGood), short(commits[hi]), len(res.Candidates))
	}
	res.FirstBad = commits[hi]
	if o.Explain {
		if res.Explanation, err = explain(ctx, o, res); err != nil {
			return res, err
		}
	}
	return res, nil
}

// pick returns the not-skipped index strictly between lo and hi nearest
// to their middle (the lower one on a tie), or -1 when none is left.
func pick(lo, hi int, skipped map[int]bool) int {
	m := lo + (hi-lo)/2
	for d := 0; d < hi-lo; d++ {
		for _, i := range []int{m - d, m + d} {
			if i > lo && i < hi && !skipped[i] {
				return i
			}
		}
	}
	return -1
}

// decide places a measured step by the change to locate, d, and its
// midpoint, mid = d/2 (for a negative d, mirrored): like good when its
// whole interval lies below mid, or when it contains zero and lies below
// d (the commit cannot be told from good and is measurably not bad); like
// bad when its interval lies above zero and reaches above mid (the
// commit differs from good in the change's direction); unknown otherwise.
// On a noisy machine an interval rarely clears the midpoint, and the
// second rules, Pinpoint's, still decide.
func decide(s Step, mid float64) Decision {
	lo, hi := s.Low, s.High
	if mid < 0 {
		lo, hi, mid = -hi, -lo, -mid
	}
	switch {
	case hi < mid:
		return Good
	case lo > 0:
		return Bad
	case hi < 2*mid:
		return Good
	}
	return Unknown
}

// measureAt compares commit with good at the rep-th repetition (twice the
// trials each time) and appends the step to res; a build failure, a
// missing or failing benchmark is a Skip step recorded in res.Skipped.
func measureAt(ctx context.Context, o Options, good, commit string, rep int, res *Result) (Step, error) {
	s := o.Settings
	if s.Trials == 0 {
		s.Trials = compare.DefaultTrials
	}
	s.Trials <<= rep
	s.Seed += uint64(len(res.Steps))
	rep2, err := compare.Run(ctx, compare.Options{
		Dir: o.Dir, Base: good, Head: commit,
		Bench: benchname.Pattern([]string{o.Bench}), Packages: o.Packages,
		Settings: s, GoCmd: o.GoCmd, Env: o.Env, BuildFlags: o.BuildFlags, CacheDir: o.CacheDir,
		ExplainOnly: true, // the culprits of the found commit only (Options.Explain)
		Out:         "",   // compare keeps each step's raw files under .mbopt/compare
	})
	st := Step{Commit: commit, Trials: s.Trials}
	if err != nil {
		return st, err
	}
	st.Subject = rep2.Head.Subject
	// The benchmark's result in the metric's unit (the counting metrics
	// compare B/op and allocs/op too), else its first result, which says
	// why it was not compared.
	unit := res.Metric.Unit()
	var r *compare.Result
	for i := range rep2.Results {
		if x := &rep2.Results[i]; x.Name == o.Bench && (r == nil || x.Unit == unit && r.Unit != unit) {
			r = x
		}
	}
	switch {
	case r == nil:
		st.Decision, st.Reason = Skip, "the benchmark is in neither revision"
	case r.Status == compare.Compared && r.Estimate != nil:
		res.Bench = r.ID
		st.Change, st.Low, st.High, st.Unit = r.Estimate.Change, r.Estimate.CI.Low, r.Estimate.CI.High, r.Unit
		if math.IsNaN(st.Change) {
			st.Decision, st.Reason = Skip, "no estimate"
		}
	case r.Status == compare.Removed:
		st.Decision, st.Reason = Skip, "the commit lacks the benchmark"
	case r.Status == compare.BuildFailed:
		st.Decision, st.Reason = Skip, "does not build: "+firstLine(r.Error)
	default:
		st.Decision, st.Reason = Skip, fmt.Sprintf("%s: %s", r.Status, firstLine(r.Error))
	}
	if st.Decision == Skip {
		res.Skipped = append(res.Skipped, Skipped{Commit: commit, Reason: st.Reason})
	}
	res.Steps = append(res.Steps, st)
	return st, nil
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
