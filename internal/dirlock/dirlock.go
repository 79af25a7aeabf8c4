// Package dirlock gives one process at a time the use of a directory: an
// exclusive flock(2) on a lock file in it, which the kernel releases when
// the process ends, however it ends. Package collect locks its output
// directory with it, package relevance/flow the directory of the application
// profiles.
package dirlock

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// File is the name of the lock file in a locked directory.
const File = ".mbopt.lock"

// A LockedError says that another process holds the lock.
type LockedError struct {
	// File is the lock file.
	File string
	// Holder describes the holder as it recorded itself: "pid N host H
	// started T", or "unknown process".
	Holder string
}

// Error names the lock file and its holder.
func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is locked by another mbopt (%s)", e.File, e.Holder)
}

// Lock takes the exclusive lock on dir, which must exist, or fails at once:
// with a *[LockedError] when another process (or another Lock call of this
// one) holds it, with an *fs.PathError when the lock file cannot be created.
// The lock file stays after unlock, holding the last holder's PID, host and
// start time for the message. It is written in place, not through package
// atomicfile: replacing the file would give the next process a different
// inode to lock. On systems without flock, Lock always succeeds.
func Lock(dir string) (unlock func(), err error) {
	file := filepath.Join(dir, File)
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	locked, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", file, err)
	}
	if !locked {
		data, _ := os.ReadFile(file)
		f.Close()
		holder := strings.Join(strings.Fields(string(data)), " ")
		if holder == "" {
			holder = "unknown process"
		}
		return nil, &LockedError{File: file, Holder: holder}
	}
	host, _ := os.Hostname()
	info := fmt.Sprintf("pid %d host %s started %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(info), 0)
	}
	return func() {
		unlockFile(f)
		f.Close()
	}, nil
}
