// Package lib is a library package whose import path has a dot in its last
// element, which the linker escapes in symbol names (lib%2ev2).
package lib

import "sort"

// Set is a generic type with a pointer method that has a closure.
type Set[K comparable] struct{ m map[K]bool }

// Add adds k.
func (s *Set[K]) Add(k K) {
	if s.m == nil {
		s.m = map[K]bool{}
	}
	func() { s.m[k] = true }()
}

// Sorted sorts xs with a closure.
func Sorted(xs []int) []int {
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	return xs
}
