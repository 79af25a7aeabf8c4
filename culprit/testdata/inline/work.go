// Package inline is culprit's fixture: helper is small enough to be
// inlined into Work, and the test's head side doubles helper's loop.
package inline

// rounds is helper's loop count; the test's head side doubles it.
const rounds = 4000

// helper mixes x rounds times; the compiler inlines it into Work.
func helper(x uint64) uint64 {
	for i := 0; i < rounds; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// Work calls helper and does work of its own.
//
//go:noinline
func Work(x uint64) uint64 {
	y := helper(x)
	for i := 0; i < 3000; i++ {
		y ^= y >> 7
		y += uint64(i)
	}
	return y
}
