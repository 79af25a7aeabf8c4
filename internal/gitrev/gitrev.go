// Package gitrev resolves the revisions mbopt compares: a revision a user
// names, and the default base of a change, the merge-base of HEAD with the
// repository's default branch. It is the one place that decides which
// branch is the default, so every command that defaults a base revision
// (suite --changed-since, compare --base) uses the same rule.
//
// # The default branch
//
// The default branch is, in this order: the branch origin/HEAD points to
// (the remote's default branch as cloned, such as "origin/main"); else a
// local branch "main"; else a local branch "master". A repository with none
// of them has no default branch, and a base must be given.
//
// Every function runs the git command with the repository's directory as
// its working directory and never changes the work tree or the index.
package gitrev

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt/internal/proc"
)

// ErrNoDefaultBranch is returned (wrapped) by [DefaultBranch] and
// [DefaultBase] when the repository has neither origin/HEAD nor a main or
// master branch.
var ErrNoDefaultBranch = errors.New("no default branch (origin/HEAD, main or master)")

// ErrNotRepository is returned (wrapped) when the directory is not inside a
// git work tree.
var ErrNotRepository = errors.New("not a git repository")

// Git runs "git args..." in dir and returns its standard output. A failure
// is an error naming the command and quoting git's first line of standard
// error; a directory outside any repository gives an error wrapping
// [ErrNotRepository].
func Git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	proc.Prepare(cmd)
	out, err := cmd.Output()
	if err == nil {
		return out, nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, ctxErr
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
	where := dir
	if where == "" {
		where = "."
	}
	if strings.Contains(msg, "not a git repository") {
		return nil, fmt.Errorf("%s: %w (git %s: %s)", where, ErrNotRepository, strings.Join(args, " "), msg)
	}
	if msg == "" {
		msg = err.Error()
	}
	return nil, fmt.Errorf("%s: git %s: %s", where, strings.Join(args, " "), msg)
}

// Commit returns the full hash of the commit that rev (any revision git
// accepts: a branch, a tag, a hash, "HEAD~2") names in the repository at
// dir. It fails, naming rev, when rev names no commit.
func Commit(ctx context.Context, dir, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("revision %q: not a revision name", rev)
	}
	out, err := Git(ctx, dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if errors.Is(err, ErrNotRepository) || ctx.Err() != nil {
			return "", err
		}
		return "", fmt.Errorf("revision %q names no commit in %s; check the name (git log --oneline shows the commits)", rev, orDot(dir))
	}
	return strings.TrimSpace(string(out)), nil
}

// DefaultBranch returns the repository's default branch by the rule in the
// package documentation, as a revision name: "origin/main" (from
// origin/HEAD), "main" or "master". It fails with [ErrNoDefaultBranch] when
// none exists.
func DefaultBranch(ctx context.Context, dir string) (string, error) {
	out, err := Git(ctx, dir, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD")
	if errors.Is(err, ErrNotRepository) || ctx.Err() != nil {
		return "", err
	}
	if err == nil {
		ref := strings.TrimSpace(string(out))
		if name, ok := strings.CutPrefix(ref, "refs/remotes/"); ok {
			if _, err := Git(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err == nil {
				return name, nil
			}
		}
	}
	for _, b := range []string{"main", "master"} {
		if _, err := Git(ctx, dir, "rev-parse", "--verify", "--quiet", "refs/heads/"+b+"^{commit}"); err == nil {
			return b, nil
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
	}
	return "", fmt.Errorf("%s: %w; name the base revision explicitly", orDot(dir), ErrNoDefaultBranch)
}

// A Base is a resolved base revision.
type Base struct {
	// Commit is the base commit's full hash.
	Commit string
	// Rev is the revision as the caller gave it; empty when the base is
	// the default (the merge-base).
	Rev string
	// Branch is the default branch the merge-base was taken with, such as
	// "origin/main"; empty when Rev was given.
	Branch string
	// Head is the revision the merge-base was taken with ("HEAD" unless
	// the caller said otherwise); empty when Rev was given.
	Head string
}

// String describes the base for a note: "1a2b3c4d5e6f (merge-base of HEAD
// and origin/main)" for a default base, "v1.2 (1a2b3c4d5e6f)" for a named
// one. Hashes are shortened to 12 digits.
func (b Base) String() string {
	if b.Rev == "" {
		return fmt.Sprintf("%s (merge-base of %s and %s)", short(b.Commit), b.Head, b.Branch)
	}
	if b.Rev == b.Commit || short(b.Rev) == short(b.Commit) && strings.HasPrefix(b.Commit, b.Rev) {
		return short(b.Commit)
	}
	return fmt.Sprintf("%s (%s)", b.Rev, short(b.Commit))
}

// ResolveBase resolves rev to a [Base]: when rev is empty, the merge-base of
// head (empty means "HEAD") with the default branch ([DefaultBranch]);
// otherwise the commit rev names. It fails when there is no default branch,
// when head and it share no history, or when rev names no commit.
func ResolveBase(ctx context.Context, dir, rev, head string) (Base, error) {
	if rev != "" {
		c, err := Commit(ctx, dir, rev)
		if err != nil {
			return Base{}, err
		}
		return Base{Commit: c, Rev: rev}, nil
	}
	if head == "" {
		head = "HEAD"
	}
	branch, err := DefaultBranch(ctx, dir)
	if err != nil {
		return Base{}, err
	}
	if _, err := Commit(ctx, dir, head); err != nil {
		return Base{}, err
	}
	out, err := Git(ctx, dir, "merge-base", "--end-of-options", head, branch)
	if err != nil {
		if errors.Is(err, ErrNotRepository) || ctx.Err() != nil {
			return Base{}, err
		}
		return Base{}, fmt.Errorf("%s and %s share no history in %s (no merge-base); name the base revision explicitly", head, branch, orDot(dir))
	}
	return Base{Commit: strings.TrimSpace(string(out)), Branch: branch, Head: head}, nil
}

// Depth returns commit's position in first-parent order: the number of
// commits on its first-parent chain back to the root, itself included
// (git rev-list --first-parent --count). Along a branch's first-parent
// history it grows by one per commit, whatever the commit times, so it
// orders commits made in the same second. In a shallow clone the chain is
// cut, so Depth returns 0 (unknown).
func Depth(ctx context.Context, dir, commit string) (int, error) {
	out, err := Git(ctx, dir, "rev-parse", "--is-shallow-repository")
	if err != nil {
		return 0, err
	}
	if strings.TrimSpace(string(out)) == "true" {
		return 0, nil
	}
	out, err = Git(ctx, dir, "rev-list", "--first-parent", "--count", "--end-of-options", commit)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, fmt.Errorf("%s: git rev-list --count %s: %q is not a count", orDot(dir), commit, out)
	}
	return n, nil
}

// TopLevel returns the absolute root directory of the work tree that dir
// lies in.
func TopLevel(ctx context.Context, dir string) (string, error) {
	out, err := Git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

func orDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
