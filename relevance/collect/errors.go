package collect

import (
	"errors"
)

// ErrNoBenchmarks is returned by [Collect], wrapped in an input error, when
// the patterns match no benchmark.
var ErrNoBenchmarks = errors.New("no benchmarks found")

// ErrLocked matches (with errors.Is) the error of [Collect] when another
// process is collecting into the same output directory. It is also an
// [*mbopt.Error] (on Out).
var ErrLocked = errors.New("output directory in use")
