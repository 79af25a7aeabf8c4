// Package gittest builds throwaway git repositories for tests: a fresh
// repository in a temporary directory, files written and committed from Go,
// and a deterministic identity and clock, so that tests of change-aware
// code run against real git history without touching the user's
// configuration.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A Repo is a git repository in a temporary directory.
type Repo struct {
	// Dir is the work tree's root directory.
	Dir string
	t   testing.TB
	n   int // commits made, for the deterministic clock
}

// New creates an empty repository whose initial branch is branch ("main"
// when empty) in a new temporary directory removed when the test ends. It
// skips the test when git is not installed.
func New(t testing.TB, branch string) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if branch == "" {
		branch = "main"
	}
	r := &Repo{Dir: t.TempDir(), t: t}
	r.Git("init", "-q", "-b", branch)
	return r
}

// Open returns the repository in dir, made by other means (a fixture
// package), for its methods; its commits are not counted in the
// deterministic clock.
func Open(t testing.TB, dir string) *Repo {
	return &Repo{Dir: dir, t: t}
}

// env isolates git from the user's and the system's configuration and fixes
// the identity and, per commit, the clock.
func (r *Repo) env() []string {
	date := "2024-01-01T00:00:00Z"
	if r.n > 0 {
		date = "2024-01-01T00:00:" + twoDigits(r.n%60) + "Z"
	}
	return append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=mbopt test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=mbopt test", "GIT_COMMITTER_EMAIL=test@example.com",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date,
	)
}

func twoDigits(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

// Git runs git with args in the repository and returns its trimmed standard
// output; a failure fails the test, quoting git's output.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = r.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes content to the slash-separated path rel, creating its
// directories.
func (r *Repo) Write(rel, content string) {
	r.t.Helper()
	path := filepath.Join(r.Dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// Read returns the content of the slash-separated path rel.
func (r *Repo) Read(rel string) string {
	r.t.Helper()
	data, err := os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(rel)))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(data)
}

// Replace replaces the one occurrence of old in the file rel with new; it
// fails the test unless old occurs exactly once.
func (r *Repo) Replace(rel, old, new string) {
	r.t.Helper()
	s := r.Read(rel)
	if n := strings.Count(s, old); n != 1 {
		r.t.Fatalf("%s: %q occurs %d times, want 1", rel, old, n)
	}
	r.Write(rel, strings.Replace(s, old, new, 1))
}

// Commit stages every change in the work tree and commits it with message
// msg, returning the commit's full hash.
func (r *Repo) Commit(msg string) string {
	r.t.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	r.n++
	return r.Git("rev-parse", "HEAD")
}

// Clone clones the repository src into a new temporary directory, so that
// the clone has src as its origin (and origin/HEAD), and returns it.
func Clone(t testing.TB, src *Repo) *Repo {
	t.Helper()
	r := &Repo{Dir: t.TempDir(), t: t, n: src.n}
	r.Git("clone", "-q", src.Dir, ".")
	return r
}
