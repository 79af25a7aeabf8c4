package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare/bisect"
	"github.com/mbopt/mbopt/internal/interrupt"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader in two
// goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// mkfifo creates a named pipe that nobody opens.
func mkfifo(t *testing.T, path string) string {
	t.Helper()
	require.NoError(t, syscall.Mkfifo(path, 0o644))
	return path
}

// signalCase is one run of TestSignalsEndABlockedRun.
type signalCase struct {
	name string
	// setup returns the arguments and the stderr text to wait for before
	// signalling ("" waits half a second).
	setup func(t *testing.T, dir string) (args []string, ready string)
	sig   syscall.Signal
	// orRefused accepts exit 2 with this stderr substring instead of an
	// interruption: a FIFO input refused before the signal arrives (the
	// fix on branch harden-callgraph).
	orRefused string
}

// TestSignalsEndABlockedRun starts mbopt as a process, blocked where no
// context reaches (open(2) of a named pipe) or busy in a workload, sends it
// a signal and checks that it ends within the guard time with the
// documented status and message. The guard is generous (the watchdog fires
// one second after the signal); it catches a hang, it is not a performance
// figure.
func TestSignalsEndABlockedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command")
	}
	bin := buildMbopt(t)
	const guard = 3 * time.Second
	outputFIFO := func(t *testing.T, dir string) ([]string, string) {
		// One truncated benchmark profile makes analyze print a warning
		// just before it opens -o, which blocks: the pipe has no reader.
		micro := filepath.Join(dir, "micro")
		require.NoError(t, os.CopyFS(micro, os.DirFS(exampleDir+"/micro")))
		data, err := os.ReadFile("../../testdata/profiles/bad/truncated.pprof")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(micro, "truncated.pprof"), data, 0o644))
		return []string{"analyze", "--app", exampleDir + "/app.pprof", "--micro", micro,
			"--module", "example.com/tinytsdb", "-o", mkfifo(t, filepath.Join(dir, "out.fifo"))}, "skipping"
	}
	tests := []signalCase{
		{"output FIFO/SIGINT", outputFIFO, syscall.SIGINT, ""},
		{"output FIFO/SIGTERM", outputFIFO, syscall.SIGTERM, ""},
		{"output FIFO/SIGHUP", outputFIFO, syscall.SIGHUP, ""},
		{"app FIFO/SIGTERM", func(t *testing.T, dir string) ([]string, string) {
			return []string{"analyze", "--app", mkfifo(t, filepath.Join(dir, "app.fifo")),
				"--micro", exampleDir + "/micro", "--module", "example.com/tinytsdb"}, ""
		}, syscall.SIGTERM, "app.fifo"},
		{"app-cmd workload/SIGINT", func(t *testing.T, dir string) ([]string, string) {
			// An interrupted workload is an interruption, not bad input.
			require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/sig\n"), 0o644))
			return []string{"run", dir, "--app-cmd", "echo workload started >&2; sleep 60 # {profile}"}, "workload started"
		}, syscall.SIGINT, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			args, ready := tt.setup(t, dir)
			cmd, stderr, exited := startGroup(t, exec.Command(bin, args...))

			waitFor(t, stderr, ready, exited)
			select {
			case <-exited:
				if tt.orRefused != "" && cmd.ProcessState.ExitCode() == cli.BadInput {
					assert.Contains(t, stderr.String(), tt.orRefused, "refused at once: the message must name the file")
					return
				}
				t.Fatalf("mbopt exited before the signal with status %d: %s", cmd.ProcessState.ExitCode(), stderr)
			default:
			}
			sent := time.Now()
			require.NoError(t, cmd.Process.Signal(tt.sig))
			select {
			case <-exited:
			case <-time.After(guard):
				t.Fatalf("mbopt still runs %v after %v; stderr: %s", guard, tt.sig, stderr)
			}
			t.Logf("%v: exited %v after the signal", tt.sig, time.Since(sent).Round(time.Millisecond))
			assert.Equal(t, interrupt.ExitCode(tt.sig), cmd.ProcessState.ExitCode(), "stderr: %s", stderr)
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			assert.Equal(t, interruptedMessage, lines[len(lines)-1], "the last stderr line")
			assert.Equal(t, 1, strings.Count(stderr.String(), "interrupted;"), "the message is printed once")
			assert.NotContains(t, stderr.String(), "goroutine ")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			for _, e := range entries {
				assert.False(t, strings.Contains(e.Name(), ".tmp-"), "temporary file %s left behind", e.Name())
			}
		})
	}
}

// startGroup starts cmd, its stdout discarded, in a process group of its
// own that is killed when the test ends, so that no process is left
// behind; it returns cmd, its stderr and a channel closed when it exits.
func startGroup(t *testing.T, cmd *exec.Cmd) (*exec.Cmd, *syncBuffer, <-chan struct{}) {
	t.Helper()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	cmd.Stdout = io.Discard
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	return cmd, stderr, exited
}

// waitFor waits until stderr holds the line ready, or half a second when
// ready is "", or the process exits.
func waitFor(t *testing.T, stderr *syncBuffer, ready string, exited <-chan struct{}) {
	t.Helper()
	if ready == "" {
		select {
		case <-exited:
		case <-time.After(500 * time.Millisecond):
		}
		return
	}
	deadline := time.After(30 * time.Second)
	for !strings.Contains(stderr.String(), ready) {
		select {
		case <-exited:
			return
		case <-deadline:
			t.Fatalf("mbopt did not print %q within 30s; stderr: %s", ready, stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	time.Sleep(100 * time.Millisecond) // from the line to the blocking call
}

func TestExitCode(t *testing.T) {
	usage := cli.Usage(errors.New(`unknown command "nosuch" for "mbopt"`))
	tests := []struct {
		name string
		err  error
		sig  os.Signal
		want int
	}{
		{"success", nil, nil, cli.OK},
		{"internal", errors.New("boom"), nil, cli.Internal},
		{"bad input", mbopt.Errorf("x.pprof: empty"), nil, cli.BadInput},
		{"usage", usage, nil, cli.BadInput},
		{"cancelled", fmt.Errorf("loading: %w", context.Canceled), nil, 130},
		{"bisect not located", &cli.ExitError{Code: cli.NotLocated, Err: fmt.Errorf("%w: only skipped commits", bisect.ErrNotLocated)}, nil, cli.NotLocated},
		// A workload killed on Ctrl-C fails as bad input; the signal wins.
		{"interrupted workload", mbopt.Errorf("workload command: signal: killed"), syscall.SIGINT, 130},
		{"terminated", errors.New("boom"), syscall.SIGTERM, 143},
		{"hung up", nil, syscall.SIGHUP, 129},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, cli.Code(tt.err, tt.sig))
		})
	}
}

// TestCancelledAnalysis checks the graceful path in-process: analyze
// honours its context, and the cancellation maps to the interrupt status.
func TestCancelledAnalysis(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var errb bytes.Buffer
	err := execute(ctx, exampleArgs("--recommend", "0"), strings.NewReader(""), io.Discard, &errb)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 130, cli.Code(err, nil))
}
