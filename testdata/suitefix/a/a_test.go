package a

import "testing"

var sink int

func loop(b *testing.B) {
	for b.Loop() {
		sink = Work(7)
	}
}

func BenchmarkFoo(b *testing.B)    { loop(b) }
func BenchmarkFoo2(b *testing.B)   { loop(b) }
func BenchmarkFooBar(b *testing.B) { loop(b) }

// BenchmarkSub has sub-benchmarks whose names contain regexp
// metacharacters, white space, a "/" and a repeated name.
func BenchmarkSub(b *testing.B) {
	for _, name := range []string{
		"x", "x", "xy", "a+b", "(paren)", "[br]", "a|b", "$dollar^",
		"dot.star", "dotXstar", "with space", "n=1", "n=10", "sl/ash", `back\slash`,
	} {
		b.Run(name, loop)
	}
}

// BenchmarkNest has two levels of sub-benchmarks: p/q, p/r, s/q, s/r.
func BenchmarkNest(b *testing.B) {
	for _, outer := range []string{"p", "s"} {
		b.Run(outer, func(b *testing.B) {
			b.Run("q", loop)
			b.Run("r", loop)
		})
	}
}
