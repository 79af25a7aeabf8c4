// Package a holds benchmarks with awkward names.
package a

// Work returns a value that depends on n.
func Work(n int) int { return n*n + 1 }
