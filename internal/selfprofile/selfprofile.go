// Package selfprofile records a CPU profile of the running program into a
// file that exists only when the program succeeded (mbopt --cpuprofile):
// the profile goes to a temporary file that replaces the target when
// [Profile.Stop] keeps it, so a failed run leaves neither a partial
// profile nor a profile of the failure at that name.
package selfprofile

import (
	"errors"
	"fmt"
	"runtime/pprof"

	"github.com/mbopt/mbopt/internal/atomicfile"
)

// ErrProfiler is wrapped by the error of a [Start] that could not start
// the CPU profiler (a profile of the process is being recorded already).
var ErrProfiler = errors.New("the CPU profiler")

// A Profile is a CPU profile of the process being recorded.
type Profile struct {
	f *atomicfile.File
}

// Start starts profiling the process into a temporary file for path
// (atomicfile.Create). An error creating it is returned as
// atomicfile.Create returns it; an error starting the profiler wraps
// [ErrProfiler].
func Start(path string) (*Profile, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Cleanup()
		return nil, fmt.Errorf("%w: %w", ErrProfiler, err)
	}
	return &Profile{f: f}, nil
}

// Stop stops profiling and, when keep is set, puts the profile at the
// path given to Start; otherwise it removes the temporary file and returns
// nil.
func (p *Profile) Stop(keep bool) error {
	pprof.StopCPUProfile()
	if !keep {
		p.f.Cleanup()
		return nil
	}
	return p.f.Commit()
}
