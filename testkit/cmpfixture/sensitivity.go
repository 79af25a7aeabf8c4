package cmpfixture

import (
	"fmt"
	"testing"
)

// The functions of [SensitivityRepo], in package Package.
const (
	// Parse takes 40% of the application's CPU but 0.1% of the only
	// benchmark that runs it, BenchmarkEncode.
	Parse = Package + ".Parse"
	// Hash takes 30% of the application's CPU and is the whole work of
	// BenchmarkHash.
	Hash = Package + ".Hash"
	// Other takes the application's remaining 30%; no benchmark runs it.
	Other = Package + ".Other"
	// AppPackage is the package of BenchmarkApp, the application's
	// request (4 units of Parse, 3 of Hash, 3 of Other per operation).
	AppPackage = Module + "/app"
)

// SensitivityRepo makes the module of issue 34's check of what a suite
// would catch: package work's Parse, Hash and Other each run one unit of
// a multiply-xorshift loop per call; Encode runs Parse once and 999 units
// of its own, so Parse is 0.1% of BenchmarkEncode; BenchmarkHash runs Hash
// alone. Package app's BenchmarkApp is the application: Parse 40%, Hash
// 30%, Other 30% of its work. One commit, tagged base; HEAD is it.
func SensitivityRepo(t testing.TB) string {
	t.Helper()
	dir, git, write := newRepo(t)
	write("work/work.go", sensitivityGo)
	write("work/work_test.go", sensitivityBenchmarks)
	write("app/app_test.go", sensitivityApp)
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("tag", "base")
	return dir
}

// unitLoop returns a function of package work running n units of the
// loop, each round's shift by shift so that no two functions share code;
// not inlined, so every profile names it whatever its source.
func unitLoop(doc, name string, units, shift int) string {
	return fmt.Sprintf(`
// %s
//
//go:noinline
func %s(seed uint64) uint64 {
	h := seed
	for i := 0; i < %d*rounds; i++ {
		h ^= uint64(i)
		h *= 1099511628211
		h ^= h >> %d
	}
	return h
}
`, doc, name, units, shift)
}

// sensitivityGo is package work of [SensitivityRepo].
var sensitivityGo = `// Package work is an application's request and its parts.
package work

// rounds is one unit of work: a variable, out of the compiler's
// constants.
var rounds = 500
` + unitLoop("Parse parses a request: one unit.", "Parse", 1, 29) +
	unitLoop("Hash hashes a request: one unit.", "Hash", 1, 31) +
	unitLoop("Other does the rest of a request: one unit.", "Other", 1, 27) +
	`
// Encode parses a request (one unit) and encodes it (999 units).
func Encode(seed uint64) uint64 {
	return encode(Parse(seed))
}
` + unitLoop("encode is Encode's own work: 999 units.", "encode", 999, 23)

// sensitivityBenchmarks is package work's benchmarks.
const sensitivityBenchmarks = `package work

import "testing"

var sink uint64

func BenchmarkEncode(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Encode(uint64(i))
	}
}

func BenchmarkHash(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += Hash(uint64(i))
	}
}
`

// sensitivityApp is package app: the application's request.
const sensitivityApp = `package app

import (
	"testing"

	"example.com/fixture/work"
)

var sink uint64

func BenchmarkApp(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := uint64(i)
		sink += work.Parse(s) + work.Parse(s+1) + work.Parse(s+2) + work.Parse(s+3)
		sink += work.Hash(s) + work.Hash(s+1) + work.Hash(s+2)
		sink += work.Other(s) + work.Other(s+1) + work.Other(s+2)
	}
}
`
