//go:build !unix

package proc

import (
	"errors"
	"os/exec"
)

func setAttr(cmd *exec.Cmd) {}

func waitExited(pid int) bool { return false }

// KillGroup kills cmd's process; without process groups its children
// survive.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// Quit kills cmd's process: there is no SIGQUIT.
func Quit(cmd *exec.Cmd) { KillGroup(cmd) }

// pinThread cannot bind a thread to a CPU here.
func pinThread(cpu int) (func(), error) {
	return nil, errors.New("binding a process to a CPU is supported on Linux only")
}

// CPUs returns nil: the CPUs a process may run on are not known here.
func CPUs() []int { return nil }
