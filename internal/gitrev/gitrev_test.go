package gitrev_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/testkit/gittest"
)

// TestResolveBaseDefault checks the default-branch rule: origin/HEAD first,
// then main, then master, and the merge-base with HEAD.
func TestResolveBaseDefault(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name       string
		branch     string // initial branch
		origin     bool   // clone, so that origin/HEAD exists
		wantBranch string
	}{
		{name: "origin/HEAD", branch: "trunk", origin: true, wantBranch: "origin/trunk"},
		{name: "main", branch: "main", wantBranch: "main"},
		{name: "master", branch: "master", wantBranch: "master"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := gittest.New(t, tt.branch)
			r.Write("a.txt", "one\n")
			fork := r.Commit("base")
			if tt.origin {
				r = gittest.Clone(t, r)
			}
			r.Git("checkout", "-q", "-b", "feature")
			r.Write("a.txt", "two\n")
			r.Commit("feature work")

			got, err := gitrev.ResolveBase(ctx, r.Dir, "", "")
			if err != nil {
				t.Fatalf("ResolveBase: %v", err)
			}
			want := gitrev.Base{Commit: fork, Branch: tt.wantBranch, Head: "HEAD"}
			if got != want {
				t.Errorf("ResolveBase = %+v, want %+v", got, want)
			}
			if s := got.String(); s != fork[:12]+" (merge-base of HEAD and "+tt.wantBranch+")" {
				t.Errorf("String() = %q", s)
			}
		})
	}
}

func TestResolveBaseNamed(t *testing.T) {
	ctx := context.Background()
	r := gittest.New(t, "main")
	r.Write("a.txt", "one\n")
	first := r.Commit("one")
	r.Write("a.txt", "two\n")
	r.Commit("two")
	r.Git("tag", "v1", first)
	for _, rev := range []string{"v1", "HEAD~1", first, first[:8]} {
		got, err := gitrev.ResolveBase(ctx, r.Dir, rev, "")
		if err != nil {
			t.Fatalf("ResolveBase(%q): %v", rev, err)
		}
		if got.Commit != first || got.Rev != rev || got.Branch != "" {
			t.Errorf("ResolveBase(%q) = %+v, want commit %s", rev, got, first)
		}
	}
	if s := (gitrev.Base{Commit: first, Rev: "v1"}).String(); s != "v1 ("+first[:12]+")" {
		t.Errorf("String() = %q", s)
	}
}

func TestResolveBaseErrors(t *testing.T) {
	ctx := context.Background()
	noDefault := gittest.New(t, "trunk")
	noDefault.Write("a.txt", "one\n")
	noDefault.Commit("one")
	repo := gittest.New(t, "main")
	repo.Write("a.txt", "one\n")
	repo.Commit("one")
	tests := []struct {
		name    string
		dir     string
		rev     string
		is      error
		message string
	}{
		{name: "no default branch", dir: noDefault.Dir, is: gitrev.ErrNoDefaultBranch, message: "name the base revision explicitly"},
		{name: "not a repository", dir: t.TempDir(), is: gitrev.ErrNotRepository, message: "not a git repository"},
		{name: "unknown revision", dir: repo.Dir, rev: "nosuch", message: `revision "nosuch" names no commit`},
		{name: "option-like revision", dir: repo.Dir, rev: "--all", message: "not a revision name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gitrev.ResolveBase(ctx, tt.dir, tt.rev, "")
			if err == nil {
				t.Fatal("ResolveBase succeeded, want an error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %q does not contain %q", err, tt.message)
			}
		})
	}
}

// TestDepth: the first-parent depth counts a branch's commits whatever
// their times (here all made in the same second), a merge is one more
// than its first parent, and a shallow clone's depth is unknown (0).
func TestDepth(t *testing.T) {
	ctx := context.Background()
	r := gittest.New(t, "main")
	commit := func(msg string) string {
		// Every commit at the same second, as a script or a rebase makes
		// them.
		r.Git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", msg, "--date", "2024-01-01T00:00:00Z")
		return r.Git("rev-parse", "HEAD")
	}
	var main []string
	for _, m := range []string{"one", "two", "three"} {
		main = append(main, commit(m))
	}
	r.Git("checkout", "-q", "-b", "feature", main[0])
	side := []string{commit("side 1"), commit("side 2")}
	r.Git("checkout", "-q", "main")
	r.Git("merge", "-q", "--no-ff", "-m", "merge", "feature")
	merge := r.Git("rev-parse", "HEAD")
	for _, tc := range []struct {
		commit string
		want   int
	}{
		{main[0], 1}, {main[1], 2}, {main[2], 3}, {side[0], 2}, {side[1], 3}, {merge, 4},
	} {
		got, err := gitrev.Depth(ctx, r.Dir, tc.commit)
		if err != nil || got != tc.want {
			t.Errorf("Depth(%.7s) = %d, %v; want %d", tc.commit, got, err, tc.want)
		}
	}
	shallow := t.TempDir()
	r.Git("clone", "-q", "--depth", "2", "file://"+r.Dir, shallow)
	got, err := gitrev.Depth(ctx, shallow, merge)
	if err != nil || got != 0 {
		t.Errorf("Depth in a shallow clone = %d, %v; want 0 (unknown)", got, err)
	}
	if _, err := gitrev.Depth(ctx, r.Dir, strings.Repeat("f", 40)); err == nil {
		t.Error("Depth of a missing commit: no error")
	}
}
