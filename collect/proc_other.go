//go:build !unix

package collect

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}

func quit(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
