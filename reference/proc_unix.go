//go:build unix

package reference

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes the command the leader of a new process group and
// kills the whole group on cancellation, so a workload's children (go run
// builds and runs a child) do not outlive it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
