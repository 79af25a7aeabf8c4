// Package benchcases runs a benchmark's cases as sub-benchmarks, so a
// benchmark that calls it creates sub-benchmarks without a b.Run in its
// own source.
package benchcases

import "testing"

// Run runs f as the sub-benchmarks "a" and "b" of b.
func Run(b *testing.B, f func(b *testing.B)) {
	b.Run("a", f)
	b.Run("b", f)
}
