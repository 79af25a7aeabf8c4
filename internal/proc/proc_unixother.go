//go:build unix && !linux

package proc

import (
	"errors"
	"os/exec"
	"syscall"
)

func setAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// waitExited reports false: without waitid's WNOWAIT in package syscall,
// the group is killed after the child is reaped (see [Wait]).
func waitExited(pid int) bool { return false }

// pinThread cannot bind a thread to a CPU here.
func pinThread(cpu int) (func(), error) {
	return nil, errors.New("binding a process to a CPU is supported on Linux only")
}

// CPUs returns nil: the CPUs a process may run on are not known here.
func CPUs() []int { return nil }
