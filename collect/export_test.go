package collect

import "github.com/mbopt/mbopt/internal/testbin"

// Launches returns the number of test binary processes started so far.
func Launches() int64 { return testbin.Launches() }
