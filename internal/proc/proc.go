// Package proc starts the child processes of mbopt (test binaries, workload
// commands) so that none of them outlives it or leaves descendants behind.
// It is the one place that knows how.
//
// Every child started with [Start] leads a process group of its own, so
// that the child and everything it starts can be killed together, and on
// Linux it gets SIGKILL when mbopt dies, even by SIGKILL (the parent-death
// signal, PR_SET_PDEATHSIG). [Wait] kills what remains of the group once the
// child has exited, so a benchmark's background processes die with it even
// when it succeeds, and [Prepare] makes canceling an exec.CommandContext
// kill the whole group.
//
// # The parent-death signal and threads
//
// Linux sends the parent-death signal when the thread that forked the child
// exits, not when the process does (prctl(2); golang.org/issue/27505). The
// Go runtime ends a thread only when a goroutine locked to it with
// runtime.LockOSThread returns without unlocking, which any code in the
// process may do. Start therefore forks every child from one goroutine that
// locks its thread for the life of the process: no other goroutine ever runs
// on that thread, so it ends only when the process does.
//
// What the signal does not reach: a descendant of the child (a grandchild
// of mbopt) still running when mbopt is killed with SIGKILL. It is in the
// child's process group, but no process is left to kill that group; it is
// reparented to init. Any other way mbopt ends (a canceled context, SIGINT,
// SIGTERM, SIGHUP handled by the caller, normal completion) kills the group.
//
// On systems other than Linux there is no parent-death signal; process
// groups are used on every Unix system, and elsewhere only the child itself
// is killed.
package proc

import (
	"os/exec"
	"runtime"
	"sync"
)

// Prepare configures cmd, before it is started, to run as described in the
// package documentation: in a new process group, with the parent-death
// signal where supported, and, when cmd was made by exec.CommandContext,
// with a Cancel that kills the whole group. It replaces cmd.SysProcAttr.
func Prepare(cmd *exec.Cmd) {
	setAttr(cmd)
	if cmd.Cancel != nil { // set by exec.CommandContext only
		cmd.Cancel = func() error {
			KillGroup(cmd)
			return nil
		}
	}
}

// A startRequest asks the starter goroutine to start cmd, on CPU cpu
// when cpu >= 0.
type startRequest struct {
	cmd  *exec.Cmd
	cpu  int
	done chan error
}

var (
	starterOnce sync.Once
	starts      chan startRequest
)

// starter starts commands for the life of the process, from a thread no
// other goroutine uses; see the package documentation.
func starter() {
	runtime.LockOSThread()
	// Never unlocked and never returns: the thread must outlive every
	// child it forks.
	for r := range starts {
		if r.cpu < 0 {
			r.done <- r.cmd.Start()
			continue
		}
		// The child inherits the forking thread's CPU affinity: pin the
		// thread for the fork, then give it its CPUs back.
		restore, err := pinThread(r.cpu)
		if err != nil {
			r.done <- err
			continue
		}
		r.done <- r.cmd.Start()
		restore()
	}
}

// Start prepares cmd (see [Prepare]) and starts it from the starter
// thread. Calls are serialized; each takes as long as a fork and exec.
func Start(cmd *exec.Cmd) error { return StartOn(cmd, -1) }

// StartOn is [Start] with the child bound to CPU cpu (its affinity, which
// its threads and children inherit), where the system supports it (Linux;
// elsewhere it returns an error); cpu < 0 is Start.
func StartOn(cmd *exec.Cmd, cpu int) error {
	Prepare(cmd)
	starterOnce.Do(func() {
		starts = make(chan startRequest)
		go starter()
	})
	done := make(chan error, 1)
	starts <- startRequest{cmd, cpu, done}
	return <-done
}

// Wait waits for cmd, started with [Start], to exit, kills every process
// left in its process group (a benchmark's background processes, a
// workload's servers), and returns cmd.Wait's result. On Linux the group is
// killed before the child is reaped, so its process group ID cannot have
// been reused by then; elsewhere it is killed right after.
func Wait(cmd *exec.Cmd) error {
	if waitExited(cmd.Process.Pid) {
		KillGroup(cmd)
		return cmd.Wait()
	}
	err := cmd.Wait()
	KillGroup(cmd)
	return err
}

// Run starts cmd with [Start] and waits for it with [Wait].
func Run(cmd *exec.Cmd) error {
	if err := Start(cmd); err != nil {
		return err
	}
	return Wait(cmd)
}
