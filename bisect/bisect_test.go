package bisect_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/bisect"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/internal/testing/gittest"
)

const workGo = `package fix

// rounds is helper's loop count.
const rounds = 4000

// helper mixes x rounds times; the compiler inlines it into Work.
func helper(x uint64) uint64 {
	for i := 0; i < rounds; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// Work calls helper and does work of its own.
//
//go:noinline
func Work(x uint64) uint64 {
	y := helper(x)
	for i := 0; i < 3000; i++ {
		y ^= y >> 7
		y += uint64(i)
	}
	return y
}
`

const workTest = `package fix

import "testing"

var sink uint64

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Work(uint64(i))
	}
}
`

// history makes the fixture: eight commits, of which the sixth doubles
// helper's work, the fourth does not build (the fifth repairs it), and the
// others change comments. It returns the repository and the commits.
func history(t *testing.T) (*gittest.Repo, []string) {
	r := gittest.New(t, "main")
	r.Write("go.mod", "module example.com/fix\n\ngo 1.22\n")
	r.Write("work.go", workGo)
	r.Write("work_test.go", workTest)
	c := []string{r.Commit("initial")}
	r.Replace("work.go", "// Work calls helper", "// Work calls helper once")
	c = append(c, r.Commit("comment"))
	r.Replace("work.go", "// rounds is helper's", "// rounds is the")
	c = append(c, r.Commit("comment"))
	r.Write("broken.go", "package fix\n\nvar broken = undefinedName\n")
	c = append(c, r.Commit("does not build"))
	r.Git("rm", "-q", "broken.go")
	r.Replace("work.go", "// helper mixes", "// helper scrambles")
	c = append(c, r.Commit("repair the build; comment"))
	r.Replace("work.go", "const rounds = 4000", "const rounds = 8000")
	c = append(c, r.Commit("helper does twice the work"))
	r.Replace("work.go", "does work of its own", "does its own work")
	c = append(c, r.Commit("comment"))
	r.Replace("work.go", "// Work calls helper once", "// Work calls helper, once")
	c = append(c, r.Commit("comment"))
	return r, c
}

func settings() compare.Settings {
	s := compare.DefaultSettings()
	s.Trials, s.Runs, s.Count, s.BenchTime = 3, 2, 3, "3000x"
	return s
}

// TestFindsTheCommit bisects the fixture from its first to its last
// commit: the unbuildable commit is skipped, the doubling commit is found
// in at most ⌈log2 8⌉ + 2 = 5 steps (commits measured, the reference
// bad against good included).
func TestFindsTheCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the fixture at several commits")
	}
	r, c := history(t)
	res, err := bisect.Run(context.Background(), bisect.Options{
		Dir: r.Dir, Bench: "BenchmarkWork", Good: c[0], Bad: c[7], Settings: settings(), CacheDir: t.TempDir(),
	})
	if err != nil {
		t.Fatalf("%v\n%+v", err, res)
	}
	for _, s := range res.Steps {
		t.Logf("%.12s %-8s %+6.1f%% [%+.1f%%, %+.1f%%] %s %s", s.Commit, s.Decision, 100*s.Change, 100*s.Low, 100*s.High, s.Subject, s.Reason)
	}
	if res.FirstBad != c[5] || res.LastGood != c[4] {
		t.Errorf("first bad %.12s, last good %.12s; want %.12s and %.12s", res.FirstBad, res.LastGood, c[5], c[4])
	}
	// A step is one commit decided (or skipped); its unknown
	// measurements repeated with more trials are part of the step.
	commits := map[string]bool{}
	for _, s := range res.Steps {
		commits[s.Commit] = true
	}
	t.Logf("%d steps (commits measured), %d measurements", len(commits), len(res.Steps))
	if len(commits) > 5 {
		t.Errorf("%d commits measured, want at most 5", len(commits))
	}
	for _, s := range res.Skipped {
		if s.Commit != c[3] {
			t.Errorf("skipped %.12s (%s); only the unbuildable %.12s may be", s.Commit, s.Reason, c[3])
		}
	}
	if out := r.Git("worktree", "list"); strings.Count(out, "\n") != 0 {
		t.Errorf("worktrees left behind:\n%s", out)
	}
}

// TestNotLocated: between two comment-only commits there is no change to
// locate.
func TestNotLocated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the fixture")
	}
	r, c := history(t)
	_, err := bisect.Run(context.Background(), bisect.Options{
		Dir: r.Dir, Bench: "BenchmarkWork", Good: c[0], Bad: c[2], Settings: settings(), CacheDir: t.TempDir(),
	})
	if !errors.Is(err, bisect.ErrNotLocated) {
		t.Fatalf("error %v, want ErrNotLocated", err)
	}
}

// TestCancelLeavesNoWorktree cancels the bisection after its first step.
func TestCancelLeavesNoWorktree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the fixture")
	}
	r, c := history(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := bisect.Run(ctx, bisect.Options{
		Dir: r.Dir, Bench: "BenchmarkWork", Good: c[0], Bad: c[7], Settings: settings(), CacheDir: t.TempDir(),
		Progress: func(bisect.Step) { cancel() },
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if out := r.Git("worktree", "list"); strings.Count(out, "\n") != 0 {
		t.Errorf("worktrees left behind:\n%s", out)
	}
}

func TestBadInput(t *testing.T) {
	r, c := history(t)
	tests := []struct {
		name      string
		good, bad string
		want      string
	}{
		{"no such revision", "nope", c[7], "nope"},
		{"good after bad", c[7], c[0], "not a first-parent ancestor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := bisect.Run(context.Background(), bisect.Options{Dir: r.Dir, Bench: "BenchmarkWork", Good: tt.good, Bad: tt.bad})
			if !errors.Is(err, input.ErrInput) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want an input error containing %q", err, tt.want)
			}
		})
	}
}
