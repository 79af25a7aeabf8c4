package collect

import (
	"bytes"
	"context"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/mbopt/mbopt/internal/proc"
)

// quitGrace is how long a timed-out process has to print its goroutine
// dump after SIGQUIT before its process group is killed.
const quitGrace = 2 * time.Second

// maxOutput bounds the output kept from one process; beyond it, the oldest
// half is dropped.
const maxOutput = 4 << 20

// launches counts the test binary processes started, for tests.
var launches atomic.Int64

// A procResult is how one test binary process ended.
type procResult struct {
	output   []byte        // stdout and stderr, interleaved; the tail if very long
	err      error         // from exec.Cmd.Wait, or a start failure
	timedOut bool          // killed after the timeout
	wall     time.Duration // from start to exit
}

// runProcess runs name with args in dir and waits for it, at most timeout.
// The process leads a process group of its own and dies with mbopt (see
// package internal/proc); when it exits, whatever is left of its group is
// killed. On timeout the process gets SIGQUIT, then its process group is
// killed after quitGrace. When ctx is canceled, the group is killed at
// once and the result's err is ctx.Err().
func runProcess(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) procResult {
	var out tailBuffer
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.WaitDelay = quitGrace // don't wait forever for grandchildren holding the pipe
	start := time.Now()
	launches.Add(1)
	if err := proc.Start(cmd); err != nil {
		return procResult{err: err}
	}
	done := make(chan error, 1)
	go func() { done <- proc.Wait(cmd) }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var r procResult
	select {
	case r.err = <-done:
	case <-timer.C:
		r.timedOut = true
		proc.Quit(cmd)
		select {
		case r.err = <-done:
		case <-time.After(quitGrace):
			proc.KillGroup(cmd)
			r.err = <-done
		}
	case <-ctx.Done():
		proc.KillGroup(cmd)
		<-done
		r.err = ctx.Err()
	}
	r.wall = time.Since(start)
	r.output = out.buf.Bytes()
	return r
}

// tailBuffer keeps the last maxOutput to 2*maxOutput bytes written to it.
type tailBuffer struct{ buf bytes.Buffer }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf.Write(p)
	if t.buf.Len() > 2*maxOutput {
		tail := append([]byte("[output truncated]\n"), t.buf.Bytes()[t.buf.Len()-maxOutput:]...)
		t.buf.Reset()
		t.buf.Write(tail)
	}
	return len(p), nil
}
