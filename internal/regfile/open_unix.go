//go:build unix

package regfile

import (
	"os"
	"syscall"
)

// openNonblocking opens path for reading with O_NONBLOCK, so that opening
// a named pipe without a writer returns at once instead of blocking (the
// caller then refuses it as not a regular file). Reads of regular files
// ignore O_NONBLOCK.
func openNonblocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}
