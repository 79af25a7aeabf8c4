//go:build unix && !linux

package proc

import (
	"os/exec"
	"syscall"
)

func setAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// waitExited reports false: without waitid's WNOWAIT in package syscall,
// the group is killed after the child is reaped (see [Wait]).
func waitExited(pid int) bool { return false }
