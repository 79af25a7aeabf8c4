// Package testbin runs Go test binaries (and the go command that builds
// them) for mbopt's collection and comparison: with a timeout that asks
// for a goroutine dump (SIGQUIT) before killing, with bounded output, and
// in a process group of their own (package internal/proc), so that none
// of them outlives mbopt.
package testbin

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/mbopt/mbopt/internal/proc"
)

// QuitGrace is how long a timed-out process has to print its goroutine
// dump after SIGQUIT before its process group is killed.
const QuitGrace = 2 * time.Second

// MaxOutput bounds the output kept from one process; beyond it, the oldest
// half is dropped.
const MaxOutput = 4 << 20

// A Result is how one process ended.
type Result struct {
	// Output is stdout and stderr, interleaved; the tail if very long.
	Output []byte
	// Err is from exec.Cmd.Wait, a start failure, or ctx.Err() when the
	// context was canceled.
	Err error
	// TimedOut is set when the process was killed after the timeout.
	TimedOut bool
	// Wall is the time from start to exit.
	Wall time.Duration
	// State is the exited process's state, with its CPU times and, on
	// Unix, its resource usage (rusage); nil when it did not start.
	State *os.ProcessState
}

// Run runs name with args in dir with environment env and waits for it,
// at most timeout. The process leads a process group of its own and dies
// with mbopt (see package internal/proc); when it exits, whatever is left
// of its group is killed. On timeout the process gets SIGQUIT, then its
// process group is killed after QuitGrace. When ctx is canceled, the group
// is killed at once and the result's Err is ctx.Err().
func Run(ctx context.Context, dir string, env []string, timeout time.Duration, name string, args ...string) Result {
	var out TailBuffer
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.WaitDelay = QuitGrace // don't wait forever for grandchildren holding the pipe
	start := time.Now()
	if err := proc.Start(cmd); err != nil {
		return Result{Err: err}
	}
	done := make(chan error, 1)
	go func() { done <- proc.Wait(cmd) }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var r Result
	select {
	case r.Err = <-done:
	case <-timer.C:
		r.TimedOut = true
		proc.Quit(cmd)
		select {
		case r.Err = <-done:
		case <-time.After(QuitGrace):
			proc.KillGroup(cmd)
			r.Err = <-done
		}
	case <-ctx.Done():
		proc.KillGroup(cmd)
		<-done
		r.Err = ctx.Err()
	}
	r.Wall = time.Since(start)
	r.Output = out.Bytes()
	r.State = cmd.ProcessState
	return r
}

// TailBuffer is an io.Writer that keeps the last MaxOutput to 2*MaxOutput
// bytes written to it, after a "[output truncated]" line when it dropped
// some. The zero value is ready to use; it is not safe for concurrent use.
type TailBuffer struct{ buf bytes.Buffer }

// Write appends p, dropping the oldest output beyond the bound.
func (t *TailBuffer) Write(p []byte) (int, error) {
	t.buf.Write(p)
	if t.buf.Len() > 2*MaxOutput {
		tail := append([]byte("[output truncated]\n"), t.buf.Bytes()[t.buf.Len()-MaxOutput:]...)
		t.buf.Reset()
		t.buf.Write(tail)
	}
	return len(p), nil
}

// Bytes returns the output kept.
func (t *TailBuffer) Bytes() []byte { return t.buf.Bytes() }

// BuildError returns the output of go test -c without its "# package"
// headers and blank lines: the compiler's messages.
func BuildError(out []byte) string {
	var keep []string
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSuffix(l, "\r")
		if !strings.HasPrefix(l, "# ") && strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
