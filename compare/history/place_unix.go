//go:build linux || darwin

package history

import (
	"errors"
	"fmt"
	"syscall"
)

// placeProblem says why a database in dir cannot be written, as far as
// the directory shows it: "its directory … is on a read-only file
// system", "… is not writable by this user", "the disk is full …"; ""
// when it shows nothing wrong.
func placeProblem(dir string) string {
	const wOK = 2 // access(2)'s W_OK
	switch err := syscall.Access(dir, wOK); {
	case errors.Is(err, syscall.EROFS):
		return fmt.Sprintf("its directory %s is on a read-only file system", dir)
	case errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM):
		return fmt.Sprintf("its directory %s is not writable by this user", dir)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err == nil && st.Bavail == 0 {
		return fmt.Sprintf("the disk is full: no space left in %s", dir)
	}
	return ""
}
