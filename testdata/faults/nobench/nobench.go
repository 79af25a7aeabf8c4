// Package nobench has tests but no benchmarks.
package nobench

// One returns 1.
func One() int { return 1 }
