//go:build unix

package tmpdir

import (
	"errors"
	"syscall"
)

// alive reports whether a process with that id exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
