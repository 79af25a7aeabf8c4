//go:build !unix

package regfile

import "os"

// openNonblocking opens path for reading. Outside Unix, the caller's Stat
// already refuses named pipes (on Windows, \\.\pipe\ paths report
// fs.ModeNamedPipe) before the open; it checks the opened file again.
func openNonblocking(path string) (*os.File, error) {
	return os.Open(path)
}
