//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

// KillGroup sends SIGKILL to cmd's whole process group. A group that has
// already exited is not an error.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Quit sends SIGQUIT to cmd's process alone: a Go program prints the stack
// of every goroutine and exits.
func Quit(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(cmd.Process.Pid, syscall.SIGQUIT)
	}
}
