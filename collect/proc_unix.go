//go:build unix

package collect

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes cmd the leader of a new process group, so that a
// timeout can kill everything the benchmark started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// quit asks the process for a goroutine dump and exit (SIGQUIT).
func quit(cmd *exec.Cmd) {
	_ = syscall.Kill(cmd.Process.Pid, syscall.SIGQUIT)
}

// killGroup kills cmd's whole process group.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
