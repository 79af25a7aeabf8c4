package collect

import (
	"errors"
	"io/fs"

	"github.com/mbopt/mbopt/internal/dirlock"
)

// LockFile is the name of the lock file [Collect] holds in the output
// directory while it runs; see the package documentation.
const LockFile = dirlock.File

// lockDir takes the exclusive lock on the output directory dir (see package
// internal/dirlock), or fails at once with an error matching ErrLocked
// that names the lock file and its holder.
func lockDir(dir string) (unlock func(), err error) {
	unlock, err = dirlock.Lock(dir)
	var le *dirlock.LockedError
	var pe *fs.PathError
	switch {
	case errors.As(err, &le):
		return nil, FieldOut.Errorf("%w: %s is locked by another mbopt collecting into it (%s); wait for it to finish or use another output directory", ErrLocked, le.File, le.Holder)
	case errors.As(err, &pe):
		return nil, FieldOut.Errorf("output directory %s: cannot create the lock file: %w", dir, err)
	}
	return unlock, err
}
