package bisect

import (
	"context"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/gitrev"
)

// This file checks the range and lists its commits, and reads the
// measured steps: how many changes they show, the next commit to measure
// and each step's decision.

// Check refuses settings no search can run with, as [Run] does before it
// measures anything: a negative count (zero is the default), as an
// [*mbopt.Error] naming the field.
func (o Options) Check() error {
	for _, n := range []struct {
		field mbopt.Field
		value int
	}{
		{FieldSettingsTrials, o.Settings.Trials}, {FieldSettingsRuns, o.Settings.Runs},
		{FieldSettingsCount, o.Settings.Count}, {FieldSettingsResamples, o.Settings.Resamples},
		{FieldMaxRepetitions, o.MaxRepetitions},
	} {
		if n.value < 0 {
			return mbopt.Errorf("%s %d: it must be at least 1", n.field, n.value)
		}
	}
	return nil
}

// commits resolves o.Good and o.Bad to full hashes and returns them with
// the first-parent commits after good up to bad, oldest first. Revisions
// that name no commit, name the same one, or where good is not on bad's
// first-parent history are input errors naming Good or Bad.
func (o Options) commits(ctx context.Context) (good, bad string, commits []string, err error) {
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	goodF, badF := FieldGood, FieldBad
	if good, err = gitrev.Commit(ctx, dir, o.Good); err != nil {
		return "", "", nil, goodF.Errorf("%w", err)
	}
	if bad, err = gitrev.Commit(ctx, dir, o.Bad); err != nil {
		return "", "", nil, badF.Errorf("%w", err)
	}
	if good == bad {
		return "", "", nil, mbopt.Errorf("%s %s and %s %s are the same commit %s: give as good a revision before the change, as bad one after it",
			goodF, o.Good, badF, o.Bad, short(good))
	}
	// The merge-base: good itself when good is an ancestor of bad; git
	// fails, printing nothing, when the two share no history.
	mb := ""
	if out, err := gitrev.Git(ctx, dir, "merge-base", good, bad); err == nil {
		mb = strings.TrimSpace(string(out))
	} else if ctx.Err() != nil {
		return "", "", nil, ctx.Err()
	}
	switch mb {
	case good:
	case bad:
		return "", "", nil, mbopt.Errorf("%s %s is not an ancestor of %s %s but comes after it: give the earlier revision as good, the later as bad",
			goodF, o.Good, badF, o.Bad)
	case "":
		return "", "", nil, mbopt.Errorf("%s %s is not an ancestor of %s %s: the two share no history", goodF, o.Good, badF, o.Bad)
	default:
		return "", "", nil, mbopt.Errorf("%s %s is not an ancestor of %s %s: the two have diverged from their merge-base %s, and bisect searches the first-parent commits from good to bad; give a good revision on bad's first-parent history (git log --first-parent %s), such as %s",
			goodF, o.Good, badF, o.Bad, short(mb), o.Bad, short(mb))
	}
	out, err := gitrev.Git(ctx, dir, "rev-list", "--first-parent", "--reverse", good+".."+bad)
	if err != nil {
		return "", "", nil, err
	}
	commits = strings.Fields(string(out))
	// good is on bad's first-parent history when the oldest commit's
	// first parent is good: otherwise it was merged from another branch.
	if len(commits) > 0 {
		out, err = gitrev.Git(ctx, dir, "rev-parse", "--verify", "--quiet", commits[0]+"^1")
	}
	if err != nil || len(commits) == 0 || commits[len(commits)-1] != bad || strings.TrimSpace(string(out)) != good {
		if ctx.Err() != nil {
			return "", "", nil, ctx.Err()
		}
		return "", "", nil, mbopt.Errorf("%s %s is an ancestor of %s %s through a merged branch, not on the first-parent history that bisect searches; give a good revision on that history (git log --first-parent %s)",
			goodF, o.Good, badF, o.Bad, o.Bad)
	}
	return good, bad, commits, nil
}

// changes returns the changes between consecutive commits that the
// decided steps show, in first-parent order: good (no change against
// itself) and each commit of commits (the first-parent commits after good,
// the last being bad) whose last measurement was decided good or bad;
// a change is the difference of two consecutive commits' changes whose
// interval (by interval arithmetic) lies wholly beyond ±threshold
// (compare.DefaultThreshold when 0).
func changes(steps []Step, good string, commits []string, threshold float64) []Change {
	if threshold <= 0 {
		threshold = compare.DefaultThreshold
	}
	last := map[string]Step{}
	for _, s := range steps {
		if s.Decision == Good || s.Decision == Bad {
			last[s.Commit] = s
		}
	}
	prev := Step{Commit: good}
	var out []Change
	for _, c := range commits {
		s, ok := last[c]
		if !ok {
			continue
		}
		ch := Change{From: prev.Commit, To: c, Change: s.Change - prev.Change, Low: s.Low - prev.High, High: s.High - prev.Low}
		if ch.Low > threshold || ch.High < -threshold {
			out = append(out, ch)
		}
		prev = s
	}
	return out
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
