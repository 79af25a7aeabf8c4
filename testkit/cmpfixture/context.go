package cmpfixture

import (
	"fmt"
	"testing"
)

// The functions and benchmarks of [ContextRepo], in package Package.
const (
	// Encode copies EncodeBytes of its payload with the runtime's
	// memmove (twice as many at tag head) and mixes a short header.
	Encode = Package + ".Encode"
	// Decode copies four 16 KiB frames with memmove: the application's
	// main user of it, unchanged at head.
	Decode = Package + ".Decode"
	// Memmove is the runtime function both copy with.
	Memmove = "runtime.memmove"
	// ContextEncode runs Encode alone.
	ContextEncode = "BenchmarkEncode"
	// ContextServe runs the application's request, Serve: Encode,
	// Decode and a multiply-xorshift loop.
	ContextServe = "BenchmarkServe"
	// EncodeBytes is what Encode copies at tag base.
	EncodeBytes = 32 << 10
)

// ContextRepo makes the repository of issue 30's check of the calling
// context: the application's request, package work's Serve, spends much
// of its CPU in the runtime's memmove, most of it under Decode and a
// little under Encode; BenchmarkEncode runs Encode alone. At tag head
// Encode copies twice as many bytes, so memmove moves in the benchmark
// under Encode only, and the application's truth is Encode's path (its
// cumulative share of the application) × the benchmark's change, not
// memmove's whole share × its change. Tags base and head; HEAD is head.
func ContextRepo(t testing.TB) string {
	t.Helper()
	dir, git, write := newRepo(t)
	write("work/work_test.go", contextBenchmarks)
	write("work/work.go", contextGo(EncodeBytes))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("tag", "base")
	write("work/work.go", contextGo(2*EncodeBytes))
	git("commit", "-q", "-am", "Encode copies twice the payload")
	git("tag", "head")
	return dir
}

// contextGo returns package work of [ContextRepo], Encode copying n bytes.
func contextGo(n int) string {
	return fmt.Sprintf(`// Package work is an application's request and its parts.
package work

// src is the payload Encode and Decode copy, dst where they copy it.
var src, dst = make([]byte, 1<<16), make([]byte, 1<<16)

// encodeBytes is what Encode copies: a variable, out of the compiler's
// constants.
var encodeBytes = %d

// Encode copies its payload into the output buffer and mixes a short
// header: the copy is nearly all its work, in instructions as in CPU
// time, so its change reads the same in both.
func Encode(seed uint64) uint64 {
	n := copy(dst, src[:encodeBytes])
	h := seed
	for i := 0; i < 4; i++ {
		h ^= uint64(dst[i])
		h *= 1099511628211
	}
	return h + uint64(n)
}

// frameBytes is what Decode copies per frame.
var frameBytes = 16 << 10

// Decode copies four frames.
func Decode(seed uint64) uint64 {
	h := seed
	for k := 0; k < 4; k++ {
		n := copy(dst[k:], src[k*1024:k*1024+frameBytes])
		h += uint64(n) + uint64(dst[k])
	}
	return h
}

// mixRounds is Mix's loop length.
var mixRounds = 1500

// Mix is the request's computation.
func Mix(seed uint64) uint64 {
	h := seed
	for i := 0; i < mixRounds; i++ {
		h ^= uint64(i)
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// Serve is the application's request.
func Serve(seed uint64) uint64 {
	return Encode(seed) + Decode(seed) + Mix(seed)
}
`, n)
}

// contextBenchmarks is package work's benchmark file of [ContextRepo].
const contextBenchmarks = `package work

import "testing"

var sink uint64

func BenchmarkEncode(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Encode(uint64(i))
	}
}

func BenchmarkServe(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Serve(uint64(i))
	}
}
`
