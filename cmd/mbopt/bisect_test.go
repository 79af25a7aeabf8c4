package main

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/gittest"
)

// TestBisectInterrupt starts mbopt bisect on the eight-commit fixture as a
// process, sends it SIGINT (Ctrl-C) while it measures its second commit,
// and checks that it exits 130 with the interruption's message, leaving
// no worktree and no branch behind.
func TestBisectInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and bisects a fixture repository")
	}
	bin := buildMbopt(t)
	dir, c := cmpfixture.HelperRepo(t, cmpfixture.HelperVariant{})
	r := gittest.Open(t, dir)
	cmd := exec.Command(bin, "bisect", "--bench", cmpfixture.Work, "--good", c[0], "--bad", c[7],
		"--metric", "cpu", "--trials", "2", "--runs", "1", "--benchtime", "200x")
	cmd.Dir = r.Dir
	cmd, stderr, exited := startGroup(t, cmd)

	// The second step's worktrees: the first step (bad measured against
	// good) made and removed its own. Standard error is not a terminal,
	// so bisect prints no progress there: the worktrees show it.
	deadline := time.After(5 * time.Minute)
	for steps, had := 0, false; steps < 2; {
		select {
		case <-exited:
			t.Fatalf("mbopt bisect exited before the signal with status %d: %s", cmd.ProcessState.ExitCode(), stderr)
		case <-deadline:
			t.Fatalf("no second bisect step within 5 minutes; stderr: %s", stderr)
		case <-time.After(20 * time.Millisecond):
		}
		out, _ := exec.Command("git", "-C", r.Dir, "worktree", "list").Output()
		has := strings.Count(strings.TrimSpace(string(out)), "\n") > 0
		if has && !had {
			steps++
		}
		had = has
	}
	time.Sleep(time.Second)
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("mbopt bisect still runs 30s after SIGINT; stderr: %s", stderr)
	}
	assert.Equal(t, 130, cmd.ProcessState.ExitCode(), "stderr: %s", stderr)
	// Off a terminal the step log is standard output's alone (issue 31:
	// it was printed on both).
	assert.NotContains(t, stderr.String(), "mbopt: bisect: ", "a step line on stderr off a terminal")
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	assert.Equal(t, interruptedMessage, lines[len(lines)-1], "the last stderr line")
	worktrees := r.Git("worktree", "list")
	t.Logf("after SIGINT: exit %d; git worktree list:\n%s", cmd.ProcessState.ExitCode(), worktrees)
	assert.Equal(t, 0, strings.Count(worktrees, "\n"), "worktrees left behind:\n%s", worktrees)
	assert.Equal(t, "* main", r.Git("branch", "--list"), "branches left behind")
}

// TestBisectBadInput: what bisect refuses exits 2 with a message naming
// the flag, before anything is measured, and prints nothing on standard
// output (issue 31: diverged revisions were measured and blamed a commit
// with exit 0; the revision errors did not name --good or --bad; good ==
// bad read "c5 is not a first-parent ancestor of c5"; --trials 0, --runs 0
// and --max-repetitions 0 or -1 were taken silently).
func TestBisectBadInput(t *testing.T) {
	dir, _ := cmpfixture.HelperRepo(t, cmpfixture.HelperVariant{})
	t.Chdir(dir)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"diverged", []string{"--good", "c5", "--bad", "unused"}, "--good c5 is not an ancestor of --bad unused: the two have diverged from their merge-base"},
		{"no such good", []string{"--good", "nope", "--bad", "c8"}, `--good: revision "nope" names no commit`},
		{"no such bad", []string{"--good", "c1", "--bad", "nope"}, `--bad: revision "nope" names no commit`},
		{"the same commit", []string{"--good", "c5", "--bad", "c5"}, "--good c5 and --bad c5 are the same commit"},
		{"trials 0", []string{"--good", "c1", "--bad", "c8", "--trials", "0"}, "--trials 0: it must be at least 1"},
		{"runs 0", []string{"--good", "c1", "--bad", "c8", "--runs", "0"}, "--runs 0: it must be at least 1"},
		{"max repetitions 0", []string{"--good", "c1", "--bad", "c8", "--max-repetitions", "0"}, "--max-repetitions 0: it must be at least 1"},
		{"max repetitions -1", []string{"--good", "c1", "--bad", "c8", "--max-repetitions", "-1"}, "--max-repetitions -1: it must be at least 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"bisect", "--bench", cmpfixture.Work, "--metric", "cpu"}, tt.args...)...)
			assert.Equal(t, 2, code, "stderr: %s", stderr)
			assert.Contains(t, stderr, tt.want)
			assert.Empty(t, stdout)
			assert.NotContains(t, stderr, "Config.")
		})
	}
}

// TestBisectUnbuildableEnd: a --good or --bad that does not build exits
// 2 naming the flag and quoting the build error, with nothing on standard
// output (issue 31 item 6: --good c4 --bad c5 with c4 broken reported "c5
// skip: does not build: …c4's error…" and exit 5).
func TestBisectUnbuildableEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fixture at two commits")
	}
	dir, _ := cmpfixture.HelperRepo(t, cmpfixture.HelperVariant{Unbuildable: true})
	t.Chdir(dir)
	for _, tc := range []struct{ good, bad, want string }{
		{"c4", "c5", "--good c4 ("},
		{"c3", "c4", "--bad c4 ("},
	} {
		t.Run(tc.good+".."+tc.bad, func(t *testing.T) {
			code, stdout, stderr := run(t, "bisect", "--bench", cmpfixture.Work, "--good", tc.good, "--bad", tc.bad,
				"--metric", "cpu", "--trials", "2", "--runs", "1", "--benchtime", "200x")
			t.Logf("exit %d: %s", code, stderr)
			assert.Equal(t, 2, code, "stderr: %s", stderr)
			assert.Contains(t, stderr, tc.want)
			assert.Contains(t, stderr, "does not build: work/broken.go")
			assert.Empty(t, stdout)
		})
	}
}
