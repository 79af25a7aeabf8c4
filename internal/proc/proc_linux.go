package proc

import (
	"errors"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

func setAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// waitExited blocks until process pid has exited, without reaping it
// (WNOWAIT): until cmd.Wait reaps it, its PID, and so its process group ID,
// stays taken. It reports whether it could wait.
func waitExited(pid int) bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, syscall.EINTR) {
			return err == nil
		}
	}
}
