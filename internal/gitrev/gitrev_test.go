package gitrev_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/internal/testing/gittest"
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
