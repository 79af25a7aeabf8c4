//go:build !unix

package reference

import "os/exec"

func setProcessGroup(cmd *exec.Cmd) {}
