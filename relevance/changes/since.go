package changes

import (
	"context"
	"errors"
	"fmt"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/internal/textutil"
)

// MergeBase is the "since" revision of [Since] that means the default
// base: the merge-base of HEAD with the default branch.
const MergeBase = "merge-base"

// The settings that [Since] and [CheckSince] name in their input errors (a
// command line's --changed-since and --only-affected).
const (
	// FieldChangedSince is the revision the changes are taken since.
	FieldChangedSince mbopt.Field = "ChangedSince"
	// FieldOnlyAffected keeps only the benchmarks the change affects.
	FieldOnlyAffected mbopt.Field = "OnlyAffected"
)

// Since maps the changes from since (a revision, or [MergeBase]) to head
// (a revision, or "" for the work tree) to the functions they change, with
// [Diff]. Its errors are input errors about [FieldChangedSince]; outside a git
// repository they say to run inside one.
func Since(ctx context.Context, since, head string) (*Result, error) {
	base := since
	if base == MergeBase {
		base = ""
	}
	ch, err := Diff(ctx, Options{Base: base, Head: head})
	switch {
	case err == nil || ctx.Err() != nil:
		return ch, err
	case errors.Is(err, gitrev.ErrNotRepository):
		return nil, mbopt.Errorf("%s %s: %v; run mbopt inside the git repository", FieldChangedSince, since, err)
	}
	return nil, mbopt.Errorf("%s %s: %v", FieldChangedSince, since, err)
}

// CheckSince refuses onlyAffected without a since revision, which says what
// changed.
func CheckSince(since string, onlyAffected bool) error {
	if onlyAffected && since == "" {
		return mbopt.Errorf("%s needs %s REV (or %s %s) to know what changed", FieldOnlyAffected, FieldChangedSince, FieldChangedSince, MergeBase)
	}
	return nil
}

// Summary says what changed since r.Base and how many of a suite's n
// benchmarks that affects (hits), as lines of a log; a second line notes
// changed code outside any function, which is not traced to benchmarks.
func (r *Result) Summary(hits, n int) []string {
	lines := []string{fmt.Sprintf("changes since %s: %s changed; %d of the suite's %s affected",
		r.Base, textutil.Plural(len(r.Functions), "function"), hits, textutil.Plural(n, "benchmark"))}
	if n := len(r.Outside); n > 0 {
		more := ""
		if n > 1 {
			more = fmt.Sprintf(" and %d more", n-1)
		}
		lines = append(lines, fmt.Sprintf("note: changed code outside any function (%s:%d%s) is not traced to benchmarks: a changed constant, variable or type may affect benchmarks that are not tagged", r.Outside[0].File, r.Outside[0].From, more))
	}
	return lines
}
