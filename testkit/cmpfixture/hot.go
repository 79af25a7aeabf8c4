package cmpfixture

import (
	"fmt"
	"testing"
)

// The functions and benchmarks of [HotRepo].
const (
	// Hot is the function most of the application's request runs.
	Hot = Package + ".Hot"
	// HotWork runs Hot and an allocating helper per operation.
	HotWork = "BenchmarkWork"
	// HotServe runs the application's request, Serve: the application
	// workload itself.
	HotServe = "BenchmarkServe"
	// HotChange is the relative change of Hot's work at tag head.
	HotChange = 0.10
	hotRounds = 20000
)

// HotRepo makes the repository of issue 30's check of the application
// impact: package work's Serve (the application's request) runs Hot (about
// two thirds of its CPU), Cold (a loop of the same instructions, about a
// third) and Alloc (a 1 KiB buffer); BenchmarkWork runs Hot and Alloc(64
// KiB), BenchmarkCold runs Cold, BenchmarkServe runs Serve. It has three
// tags: base; aa, base with a comment changed; and head, where Hot runs
// exactly HotChange (10%) more rounds of its loop, so the application's
// truth is Hot's share of it × 10%. HEAD is head.
func HotRepo(t testing.TB) string {
	t.Helper()
	dir, git, write := newRepo(t)
	write("work/work_test.go", hotBenchmarks)
	write("work/work.go", hotGo("Hot mixes n rounds.", hotRounds))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("tag", "base")
	write("work/work.go", hotGo("Hot mixes n rounds of a multiply-xorshift.", hotRounds))
	git("commit", "-q", "-am", "comment only")
	git("tag", "aa")
	git("checkout", "-q", "-b", "topic", "base")
	write("work/work.go", hotGo("Hot mixes n rounds.", hotRounds*(100+100*HotChange)/100))
	git("commit", "-q", "-am", "Hot does 10% more work")
	git("tag", "head")
	return dir
}

// hotGo returns package work of [HotRepo], Hot running rounds rounds.
func hotGo(doc string, rounds float64) string {
	return fmt.Sprintf(`// Package work is an application's request and its parts.
package work

// hotRounds is Hot's loop length: a variable, out of the compiler's
// constants.
var hotRounds = %d

// %s
func Hot(seed uint64) uint64 {
	h := seed
	for i := 0; i < hotRounds; i++ {
		h ^= uint64(i)
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// coldRounds is Cold's loop length.
var coldRounds = %d

// Cold runs the same loop as Hot, half as long.
func Cold(seed uint64) uint64 {
	h := seed
	for i := 0; i < coldRounds; i++ {
		h ^= uint64(i)
		h *= 1099511628211
		h ^= h >> 31
	}
	return h
}

// Alloc returns a buffer of n bytes, filled.
func Alloc(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// Serve is the application's request.
func Serve(seed uint64) uint64 {
	h := Hot(seed) + Cold(seed)
	return h + uint64(len(Alloc(1024)))
}
`, int(rounds), doc, hotRounds/2)
}

// hotBenchmarks is package work's benchmark file of [HotRepo].
const hotBenchmarks = `package work

import "testing"

var sink uint64

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Hot(uint64(i))
		sink += uint64(len(Alloc(64 << 10)))
	}
}

func BenchmarkCold(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Cold(uint64(i))
	}
}

func BenchmarkServe(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Serve(uint64(i))
	}
}
`
