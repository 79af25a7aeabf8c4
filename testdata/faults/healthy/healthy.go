// Package healthy has only benchmarks that succeed.
package healthy

// Sum returns 0 + 1 + ... + n-1.
func Sum(n int) int {
	s := 0
	for i := range n {
		s += i
	}
	return s
}
