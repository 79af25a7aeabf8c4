package atomicfile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps directories a and b atomically (renameat2 with
// RENAME_EXCHANGE), falling back to two renames where the file system does
// not support it.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		return renameSwap(a, b)
	}
	return err
}
