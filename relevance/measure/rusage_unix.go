//go:build unix

package measure

import (
	"os"
	"syscall"
)

// voluntarySwitches returns the exited process's voluntary context
// switches (ru_nvcsw): how often it waited.
func voluntarySwitches(ps *os.ProcessState) (int64, bool) {
	if ps == nil {
		return 0, false
	}
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return int64(ru.Nvcsw), true
}
