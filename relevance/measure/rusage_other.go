//go:build !unix

package measure

import "os"

// voluntarySwitches is unknown where the system does not report it.
func voluntarySwitches(*os.ProcessState) (int64, bool) { return 0, false }
