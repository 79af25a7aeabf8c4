// Package calc is the application code whose coverage the example records.
package calc

// Sum adds xs.
func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// Max returns the largest of xs; the workload never calls it.
func Max(xs []int) int {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
