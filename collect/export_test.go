package collect

// Launches returns the number of test binary processes started so far.
func Launches() int64 { return launches.Load() }
