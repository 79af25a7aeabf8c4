// Package testbin builds, lists and runs Go test binaries for mbopt's
// collection and comparison, the one place that does: [Build] runs
// go test -c, [List] asks a binary for its benchmarks (-test.list), and
// [Run] runs a binary with a timeout that asks for a goroutine dump
// (SIGQUIT) before killing, with bounded output. Every process runs in a
// process group of its own (package internal/proc), so that none of them
// outlives mbopt.
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

// A Build is one go test -c of one package.
type Build struct {
	// GoCmd is the go command; "" means "go".
	GoCmd string
	// Dir is the directory the go command runs in.
	Dir string
	// Env is its environment; nil means the process's.
	Env []string
	// Flags are build flags, placed before the package (-tags, -cover, …).
	Flags []string
	// Package is the package's import path or directory.
	Package string
	// Out is the path of the test binary to write.
	Out string
}

// Args returns the go command's arguments: test -c -o Out, the Flags,
// then Package.
func (b Build) Args() []string {
	args := append([]string{"test", "-c", "-o", b.Out}, b.Flags...)
	return append(args, b.Package)
}

// Run builds the test binary and returns the go command's output, stdout
// and stderr interleaved. A package without test files builds nothing:
// Run succeeds and Out does not exist. A failed build returns the output
// (see [BuildError]) and the go command's error; a canceled one
// ctx.Err().
func (b Build) Run(ctx context.Context) ([]byte, error) {
	goCmd := b.GoCmd
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.CommandContext(ctx, goCmd, b.Args()...)
	cmd.Dir, cmd.Env = b.Dir, b.Env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := proc.Run(cmd)
	if err != nil && ctx.Err() != nil {
		return out.Bytes(), ctx.Err()
	}
	return out.Bytes(), err
}

// ListArgs returns the flags with which [List] asks a test binary for its
// benchmarks: -test.list ^Benchmark.
func ListArgs() []string { return []string{"-test.list", "^Benchmark"} }

// List runs test binary bin with [ListArgs] in dir, as [Run] does, and
// returns the top-level benchmarks it lists, in its order, with how the
// process ended. The names are nil when the process failed or timed out
// (the Result says which), and also when it listed none: a binary without
// benchmarks, or one whose TestMain does not call m.Run.
func List(ctx context.Context, dir string, env []string, timeout time.Duration, bin string) ([]string, Result) {
	r := Run(ctx, dir, env, timeout, bin, ListArgs()...)
	if r.Err != nil || r.TimedOut {
		return nil, r
	}
	return BenchmarkNames(r.Output), r
}

// BenchmarkNames returns the lines of -test.list output that name
// benchmarks, in order: those that, without surrounding white space, start
// with "Benchmark" and hold no space or tab; nil when there are none.
func BenchmarkNames(out []byte) []string {
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "Benchmark") && !strings.ContainsAny(l, " \t") {
			names = append(names, l)
		}
	}
	return names
}

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
	return RunOn(ctx, -1, dir, env, timeout, name, args...)
}

// RunOn is [Run] with the process bound to CPU cpu (proc.StartOn); cpu < 0
// is Run.
func RunOn(ctx context.Context, cpu int, dir string, env []string, timeout time.Duration, name string, args ...string) Result {
	var out TailBuffer
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.WaitDelay = QuitGrace // don't wait forever for grandchildren holding the pipe
	start := time.Now()
	if err := proc.StartOn(cmd, cpu); err != nil {
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
