package compare_test

import (
	"fmt"
	"testing"

	"github.com/mbopt/mbopt/testkit/gittest"
)

// workSource is the Go source of the benchmark body of the throwaway
// modules below, work(b): b.N rounds of rounds steps of a linear
// congruential generator, kept from the compiler by sink.
func workSource(rounds int) string {
	return fmt.Sprintf(`var sink uint64

func work(b *testing.B) {
	for i := 0; i < b.N; i++ {
		h := uint64(i)
		for k := 0; k < %d; k++ {
			h = h*6364136223846793005 + 1
		}
		sink += h
	}
}
`, rounds)
}

// twoVersions returns a repository of the module example.com/m whose
// file holds src(false) in the commit tagged base and src(true) in HEAD.
func twoVersions(t *testing.T, file string, src func(head bool) string) *gittest.Repo {
	t.Helper()
	r := gittest.New(t, "main")
	r.Write("go.mod", "module example.com/m\n\ngo 1.22\n")
	r.Write(file, src(false))
	r.Commit("base")
	r.Git("tag", "base")
	r.Write(file, src(true))
	r.Commit("head")
	return r
}
