package compare_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/gittest"
)

// seedBenchmarks are two benchmarks whose instruction count per operation
// depends on the runtime's random seed: a map-heavy one, which ranges
// over a map built in its setup (its layout and so the cost of a range
// come from the seed), and one with random inputs, keys drawn in its setup
// from math/rand/v2's global source, which GODEBUG cannot seed.
const seedBenchmarks = `package rnd

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

func BenchmarkMapRange(b *testing.B) {
	m := map[string]int{}
	for i := range 60 {
		m["key-"+strconv.Itoa(i*7919)] = i
	}
	for b.Loop() {
		s := 0
		for _, v := range m {
			s += v
		}
		_ = s
	}
}

func BenchmarkRandomKeys(b *testing.B) {
	m := map[uint64]int{}
	for range 40 {
		m[rand.Uint64N(1000)] = 1
	}
	for b.Loop() {
		s := 0
		for k := range uint64(16) {
			s += m[k*61]
		}
		_ = s
	}
}
`

// TestInstructionsFixTheRuntimeSeed: an A/A of a map-heavy benchmark and
// one with random inputs, counted at the default settings, gives no change
// and minimum detectable effects of at most 1% (compare.ImpreciseMDE), no
// imprecise caveat: the counted binaries' runtime seed is fixed per run
// (internal/runseed). Without it, the same benchmarks' A/A (3 trials, a
// 2-core machine under load) measured MDEs of 1.6% (map range) and 12.1%
// (random keys), both marked imprecise: each process drew its own map
// layout and keys; with it, 0.042% and 0.043%.
func TestInstructionsFixTheRuntimeSeed(t *testing.T) {
	if testing.Short() {
		t.Skip("an A/A under Valgrind; skipped with -short")
	}
	needValgrind(t)
	repo := gittest.New(t, "")
	repo.Write("go.mod", "module example.com/rnd\n\ngo 1.24\n")
	repo.Write("rnd_test.go", seedBenchmarks)
	repo.Commit("base")
	repo.Git("tag", "base")
	repo.Write("rnd_test.go", strings.Replace(seedBenchmarks, "package rnd", "// Package rnd draws.\npackage rnd", 1))
	repo.Commit("comment only")
	rep, err := compare.Run(context.Background(), compare.Options{Dir: repo.Dir, Base: "base", Head: "HEAD", Bench: ".",
		Settings: compare.Settings{Metric: measure.Instructions, Seed: 1}, CacheDir: t.TempDir(), Out: t.TempDir()})
	require.NoError(t, err)
	noted := false
	for _, n := range rep.Notes {
		noted = noted || strings.Contains(n, "counted with a fixed runtime seed per run")
	}
	assert.True(t, noted, "the report says the seed was fixed: %q", rep.Notes)
	res := byUnit(rep, "instructions/op")
	require.Len(t, res, 2, "%+v", rep.Results)
	for name, r := range res {
		require.NotNil(t, r.MinDetectableEffect, name)
		t.Logf("%s: %+.3f%%, MDE %.3f%%, %d measurements", name, 100*r.Estimate.Change, 100**r.MinDetectableEffect, r.Estimate.BaseN)
		assert.Equal(t, benchstats.Unchanged, r.Verdict, name)
		assert.LessOrEqual(t, *r.MinDetectableEffect, compare.ImpreciseMDE, name)
		for _, c := range r.Caveats {
			assert.NotContains(t, c, compare.CaveatImprecise, name)
		}
	}
}
