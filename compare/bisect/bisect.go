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
//
// Before it measures anything, Run checks the range: good and bad must be
// different commits and good must be on bad's first-parent history (not
// on a branch that diverged from it, nor reached only through a merge);
// and a good or bad whose package of the benchmark does not build is bad
// input too, found in the first step once both are built, before the
// benchmark runs. Each is an input error naming Good or Bad.
//
// The search follows one change. When the steps it decided show more
// than one (see [Change]: consecutive measured commits whose changes
// against good differ beyond ±Settings.Threshold, interval arithmetic
// on their intervals), Run names no commit: Result.Changes lists them
// and Run returns ErrNotLocated; a larger threshold says which size of
// change counts.
package bisect

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/relevance/measure"
)

// ErrNotLocated is returned when the change cannot be located to one
// commit: bad is not measurably different from good, skipped commits hide
// which commit made the change, or the steps show more than one change.
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
	// instructions; "" is compare's default, compare.Settings.RunMetric:
	// instructions where Valgrind is installed, else time), and zero
	// Count and BenchTime are
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
	// CompareProgress, when set, is each step's compare.Options.Progress
	// (a compare.ProgressPrinter's Event method draws it as mbopt compare
	// does).
	CompareProgress func(compare.Event)
	// Explain, once the first bad commit is found, compares it with the
	// last good commit once more with the benchmark's culprit functions
	// (compare.Options.Explain) into Result.Explanation.
	Explain bool
}

// The fields of [Options] that input errors name (mbopt.Field paths).
const (
	FieldBad               mbopt.Field = "Bad"
	FieldBench             mbopt.Field = "Bench"
	FieldGood              mbopt.Field = "Good"
	FieldMaxRepetitions    mbopt.Field = "MaxRepetitions"
	FieldSettingsTrials    mbopt.Field = "Settings.Trials"
	FieldSettingsRuns      mbopt.Field = "Settings.Runs"
	FieldSettingsCount     mbopt.Field = "Settings.Count"
	FieldSettingsResamples mbopt.Field = "Settings.Resamples"
)

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

// A Change is a change between two measured commits that the steps of a
// bisection show: the difference of their changes against good (To's
// minus From's), with an interval whose ends are the farthest ends of
// the two intervals (interval arithmetic), wholly beyond the threshold.
type Change struct {
	// From is the earlier commit: good, or a commit measured.
	From string `json:"from"`
	// To is the later commit measured; the change lies in the commits
	// after From up to To.
	To string `json:"to"`
	// Change is the difference of To's and From's changes against good.
	Change float64 `json:"change"`
	// Low is the lower end of Change's interval.
	Low float64 `json:"low"`
	// High is the upper end of Change's interval.
	High float64 `json:"high"`
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
	// Changes, when the steps show more than one change beyond the
	// threshold, are those changes in first-parent order, and the change
	// is not located; empty otherwise.
	Changes []Change `json:"changes,omitempty"`
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
// the change cannot be located, an error matching mbopt.ErrInput for bad
// options, and ctx's error when canceled.
func Run(ctx context.Context, o Options) (*Result, error) {
	return run(ctx, o, compareStep)
}

// A measureFunc measures commit against good with trials trials and the
// schedule seed seed, as one step of a bisection: the step (Commit,
// Trials, the change with its interval and Unit, or Decision Skip with a
// Reason) and the benchmark's id. [Run] measures with compareStep; the
// tests give run their own.
type measureFunc func(ctx context.Context, o Options, good, commit string, trials int, seed uint64) (Step, string, error)

// run is [Run] measuring each step with step.
func run(ctx context.Context, o Options, step measureFunc) (*Result, error) {
	if o.Bench == "" || o.Good == "" || o.Bad == "" {
		return nil, FieldBench.Errorf("bisect needs the benchmark (--bench) and the good and bad revisions (--good, --bad)")
	}
	if err := o.Check(); err != nil {
		return nil, err
	}
	good, bad, commits, err := o.commits(ctx)
	if err != nil {
		return nil, err
	}
	o.Settings.Metric = o.Settings.RunMetric() // every step measures the same
	res := &Result{Good: good, Bad: bad, Metric: o.Settings.Metric, Skipped: []Skipped{}}
	ref, err := measureReference(ctx, o, step, good, bad, res)
	if bf := (*buildFailure)(nil); errors.As(err, &bf) {
		return nil, o.unbuildable(bf, good, bad)
	}
	if err != nil {
		return res, err
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
		d, err := decideCommit(ctx, o, step, good, commits[i], mid, res)
		if err != nil {
			return res, err
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
	if cs := changes(res.Steps, good, commits, o.Settings.Threshold); len(cs) > 1 {
		res.Changes = cs
		var b strings.Builder
		for i, c := range cs {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s..%s %+.1f%%", short(c.From), short(c.To), 100*c.Change)
		}
		return res, fmt.Errorf("%w: the steps show %d changes, not one: %s; bisect each range on its own (good and bad its two commits), or raise the threshold (--threshold) above the smaller changes to locate the larger",
			ErrNotLocated, len(cs), b.String())
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

// measureReference measures bad against good, the first step, again with
// more trials while its interval contains zero (up to maxReps times), and
// returns the step, decided Bad. It fails with [ErrNotLocated] when the
// step is skipped or bad stays not measurably different from good, and
// with the *buildFailure of a side that does not build.
func measureReference(ctx context.Context, o Options, step measureFunc, good, bad string, res *Result) (Step, error) {
	for rep := 0; ; rep++ {
		ref, err := measureAt(ctx, o, step, good, bad, rep, res)
		if err != nil {
			return ref, err
		}
		last := &res.Steps[len(res.Steps)-1]
		if ref.Decision == Skip {
			o.progress(*last)
			return ref, fmt.Errorf("%w: %s at %s: %s", ErrNotLocated, o.Bench, short(bad), ref.Reason)
		}
		if beyond(ref, o.Settings.Threshold) {
			last.Decision = Bad
			o.progress(*last)
			return ref, nil
		}
		last.Decision = Unknown
		o.progress(*last)
		if rep+1 >= o.maxReps() {
			return ref, fmt.Errorf("%w: %s at %s is not measurably different from %s after %d measurements (%+.1f%%, interval %+.1f%% to %+.1f%%)", ErrNotLocated, o.Bench, short(bad), short(good), rep+1, 100*ref.Change, 100*ref.Low, 100*ref.High)
		}
	}
}

// unbuildable is the input error of a bisection whose good or bad
// revision does not build (bf says which side): every step measures
// against good, and the change is bad's, so both must build.
func (o Options) unbuildable(bf *buildFailure, good, bad string) error {
	f, rev, commit := FieldGood, o.Good, good
	if bf.side == compare.Head {
		f, rev, commit = FieldBad, o.Bad, bad
	}
	return mbopt.Errorf("%s %s (%s) %s; bisect measures bad and every commit between against good, so both must build: give revisions where the package of %s builds",
		f, rev, short(commit), bf.Error(), o.Bench)
}

// decideCommit measures commit against good, again while the step is
// Unknown (up to maxReps times), and returns its decision against mid,
// half the reference change: Good, Bad, or Skip for a commit that does
// not build, whose step is skipped, or that stays Unknown.
func decideCommit(ctx context.Context, o Options, step measureFunc, good, commit string, mid float64, res *Result) (Decision, error) {
	for rep := 1; ; rep++ {
		st, err := measureAt(ctx, o, step, good, commit, rep-1, res)
		if bf := (*buildFailure)(nil); errors.As(err, &bf) && bf.side == compare.Head {
			st.Decision, st.Reason = Skip, bf.Error()
			res.Steps = append(res.Steps, st)
			res.Skipped = append(res.Skipped, Skipped{Commit: st.Commit, Reason: st.Reason})
		} else if err != nil {
			return Skip, err
		}
		d := st.Decision
		if d == Skip {
			o.progress(st)
			return d, nil
		}
		d = decide(st, mid)
		if d == Unknown && rep >= o.maxReps() {
			res.Steps[len(res.Steps)-1].Reason = fmt.Sprintf("unknown after %d measurements", rep)
			res.Skipped = append(res.Skipped, Skipped{Commit: commit, Reason: res.Steps[len(res.Steps)-1].Reason})
			d = Skip
		}
		res.Steps[len(res.Steps)-1].Decision = d
		o.progress(res.Steps[len(res.Steps)-1])
		if d != Unknown {
			return d, nil
		}
	}
}
