// Package b reuses benchmark names from package a.
package b

// Work returns a value that depends on n.
func Work(n int) int { return 3*n + 1 }
