// Package hidden holds a benchmark whose sub-benchmarks the source does
// not show: package benchcases creates them.
package hidden

// Double returns 2n.
func Double(n int) int { return 2 * n }
