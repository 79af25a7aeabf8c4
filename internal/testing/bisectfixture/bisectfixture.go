// Package bisectfixture makes the throwaway git repository the tests of
// package bisect and of mbopt bisect run on: a module with one benchmark,
// BenchmarkWork, and eight commits on branch main, of which the sixth
// doubles the work of a helper that the compiler inlines into the
// benchmarked function and the others change only comments; a variant
// makes the fourth commit fail to build (the fifth repairs it).
//
// The benchmark reports go test's own ns/op, the wall time: the tests
// bisect it with the cpu or instructions metric, which do not depend on
// the machine's load (with the time metric, intervals of ±100–300% were
// seen on a loaded 2-core machine).
package bisectfixture

import (
	"testing"

	"github.com/mbopt/mbopt/internal/testing/gittest"
)

// Bench is the fixture's benchmark.
const Bench = "BenchmarkWork"

// Package is the import path of the fixture's package.
const Package = "example.com/fix"

// Doubling is the index in the commits [History] returns of the commit
// that doubles the helper's work; Unbuildable that of the commit that
// does not build in the Unbuildable variant.
const (
	Doubling    = 5
	Unbuildable = 3
)

// Helper is the function whose work the Doubling commit doubles, as
// profiles name it.
const Helper = Package + ".helper"

const workGo = `package fix

// rounds is helper's loop count.
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
`

const workTest = `package fix

import "testing"

var sink uint64

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Work(uint64(i))
	}
}
`

// History makes the repository and returns it with its eight commits,
// oldest first. With unbuildable, commit [Unbuildable] adds a file that
// does not compile and the next commit removes it; otherwise both change
// comments only.
func History(t testing.TB, unbuildable bool) (*gittest.Repo, []string) {
	t.Helper()
	r := gittest.New(t, "main")
	r.Write("go.mod", "module "+Package+"\n\ngo 1.22\n")
	r.Write("work.go", workGo)
	r.Write("work_test.go", workTest)
	c := []string{r.Commit("initial")}
	r.Replace("work.go", "// Work calls helper", "// Work calls helper once")
	c = append(c, r.Commit("comment"))
	r.Replace("work.go", "// rounds is helper's", "// rounds is the")
	c = append(c, r.Commit("comment"))
	if unbuildable {
		r.Write("broken.go", "package fix\n\nvar broken = undefinedName\n")
		c = append(c, r.Commit("does not build"))
		r.Git("rm", "-q", "broken.go")
		r.Replace("work.go", "// helper mixes", "// helper scrambles")
		c = append(c, r.Commit("repair the build; comment"))
	} else {
		r.Replace("work.go", "the compiler inlines", "the compiler will inline")
		c = append(c, r.Commit("comment"))
		r.Replace("work.go", "// helper mixes", "// helper scrambles")
		c = append(c, r.Commit("comment"))
	}
	r.Replace("work.go", "const rounds = 4000", "const rounds = 8000")
	c = append(c, r.Commit("helper does twice the work"))
	r.Replace("work.go", "does work of its own", "does its own work")
	c = append(c, r.Commit("comment"))
	r.Replace("work.go", "// Work calls helper once", "// Work calls helper, once")
	c = append(c, r.Commit("comment"))
	return r, c
}
