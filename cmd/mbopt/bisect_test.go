package main

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/internal/testing/cmpfixture"
	"github.com/mbopt/mbopt/internal/testing/gittest"
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

	// The first progress line: bad measured against good; the second
	// step's worktrees are being made or measured.
	deadline := time.After(5 * time.Minute)
	for !strings.Contains(stderr.String(), "mbopt: bisect: ") {
		select {
		case <-exited:
			t.Fatalf("mbopt bisect exited before the signal with status %d: %s", cmd.ProcessState.ExitCode(), stderr)
		case <-deadline:
			t.Fatalf("no bisect step within 5 minutes; stderr: %s", stderr)
		case <-time.After(50 * time.Millisecond):
		}
	}
	time.Sleep(time.Second)
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	select {
	case <-exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("mbopt bisect still runs 30s after SIGINT; stderr: %s", stderr)
	}
	assert.Equal(t, 130, cmd.ProcessState.ExitCode(), "stderr: %s", stderr)
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	assert.Equal(t, interruptedMessage, lines[len(lines)-1], "the last stderr line")
	worktrees := r.Git("worktree", "list")
	t.Logf("after SIGINT: exit %d; git worktree list:\n%s", cmd.ProcessState.ExitCode(), worktrees)
	assert.Equal(t, 0, strings.Count(worktrees, "\n"), "worktrees left behind:\n%s", worktrees)
	assert.Equal(t, "* main", r.Git("branch", "--list"), "branches left behind")
}
