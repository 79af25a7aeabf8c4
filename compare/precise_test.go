package compare_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/gittest"
)

// awkwardBenchmarks are benchmarks whose instruction counts vary between
// processes for reasons no setting removes: one draws its inputs from
// math/rand/v2's global source (seeded per process, which GODEBUG cannot
// fix), one is map-heavy (the runtime's per-process hash seed lays the
// buckets out differently), one starts a goroutine per operation.
const awkwardBenchmarks = `package awk

import (
	"math/rand/v2"
	"testing"
)

var sink int

func BenchmarkRandomInputs(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := 0
		for j := 0; j < 200; j++ {
			s += rand.IntN(1000) % 7
		}
		sink = s
	}
}

func BenchmarkMapHeavy(b *testing.B) {
	for i := 0; i < b.N; i++ {
		m := map[string]int{}
		for j := 0; j < 300; j++ {
			m[string(rune('a'+j%26))+string(rune('a'+j%17))] += j
		}
		sink = len(m)
	}
}

func BenchmarkGoroutine(b *testing.B) {
	for i := 0; i < b.N; i++ {
		done := make(chan int)
		go func() { done <- i }()
		sink = <-done
	}
}
`

// TestAwkwardBenchmarksPreciseOrMarked: an A/A instructions comparison
// at the defaults (target MDE 0.1%, its extra trials) gives benchmarks
// with random inputs, a map-heavy one and one that starts goroutines an
// MDE of at most 1%, or marks them imprecise with a reason, and calls
// none of them a definite change.
func TestAwkwardBenchmarksPreciseOrMarked(t *testing.T) {
	if testing.Short() {
		t.Skip("an A/A comparison under Valgrind; skipped with -short")
	}
	needValgrind(t)
	repo := gittest.New(t, "")
	repo.Write("go.mod", "module example.com/awk\n\ngo 1.22\n")
	repo.Write("awk_test.go", awkwardBenchmarks)
	repo.Commit("base")
	repo.Git("tag", "base")
	repo.Commit("the same tree")
	rep, err := compare.Run(context.Background(), compare.Options{Dir: repo.Dir, Base: "base", Head: "HEAD",
		Settings: compare.Settings{Metric: measure.Instructions}, CacheDir: t.TempDir(), Out: t.TempDir()})
	require.NoError(t, err)
	res := byUnit(rep, "instructions/op")
	require.Len(t, res, 3, "%+v", rep.Results)
	for name, r := range res {
		mde := *r.MinDetectableEffect
		t.Logf("%s: %v, MDE %.3f%%, %d measurements per version, caveats %q", name, r.Verdict, 100*mde, r.Estimate.BaseN, r.Caveats)
		if r.Verdict.Definite() {
			t.Errorf("%s: %v in an A/A comparison", name, r.Verdict)
		}
		marked := false
		for _, c := range r.Caveats {
			marked = marked || strings.HasPrefix(c, compare.CaveatImprecise)
		}
		if mde > compare.ImpreciseMDE != marked {
			t.Errorf("%s: MDE %.3f%%, marked imprecise %v", name, 100*mde, marked)
		}
	}
	t.Logf("notes: %q", rep.Notes)
}
