//go:build !unix

package proc

import "os/exec"

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
