package collect

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LockFile is the name of the lock file [Collect] holds in the output
// directory while it runs; see the package documentation.
const LockFile = ".mbopt.lock"

// lockDir takes the exclusive lock on the output directory dir, or fails at
// once with an error matching ErrLocked that names the lock file and its
// holder. The lock is an flock(2) on dir/LockFile, which the kernel
// releases when the process ends, however it ends; the file itself stays,
// holding the last holder's PID, host and start time for the message. It
// is written in place, not through package atomicfile: replacing the file
// would give the next process a different inode to lock.
func lockDir(dir string) (unlock func(), err error) {
	file := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, inputErrorf("Out", "output directory %s: cannot create the lock file: %w", dir, err)
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
		return nil, &InputError{Field: "Out", Err: fmt.Errorf("%w: %s is locked by another mbopt collecting into it (%s); wait for it to finish or use another output directory", ErrLocked, file, holder)}
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
