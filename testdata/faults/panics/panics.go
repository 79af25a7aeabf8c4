// Package panics has benchmarks that panic, fail or skip.
package panics

// Double returns 2*n.
func Double(n int) int { return 2 * n }
