// Package tmpdir makes mbopt's temporary directories so that no run
// leaves one behind in $TMPDIR: each directory, named PREFIX + the
// process id + "-" + a random suffix, is removed by the function [Make]
// returns (the normal way), by interrupt.Cleanup when a signal forces the
// exit before the deferred removals run, and, should the process be killed
// (SIGKILL, the machine's out-of-memory killer), by the next Make of the
// same prefix, which removes the directories whose process is gone.
package tmpdir

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mbopt/mbopt/internal/interrupt"
)

// Make removes what killed processes left with prefix (see [Sweep]) and
// creates a new directory in os.TempDir named prefix + the process id +
// "-" + a random suffix. It returns the directory and the function that
// removes it (safe to call more than once; callers defer it).
func Make(prefix string) (dir string, remove func(), err error) {
	Sweep(prefix)
	dir, err = os.MkdirTemp("", prefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", nil, err
	}
	unregister := interrupt.Register(func() { os.RemoveAll(dir) })
	var once sync.Once
	return dir, func() {
		once.Do(func() {
			os.RemoveAll(dir)
			unregister()
		})
	}, nil
}

// Sweep removes the directories in os.TempDir whose names [Make] gave
// with prefix for a process that no longer exists. Where the system
// cannot tell (not Unix), it removes none.
func Sweep(prefix string) {
	entries, err := os.ReadDir(os.TempDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || alive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(os.TempDir(), e.Name()))
	}
}
