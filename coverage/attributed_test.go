package coverage_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/bitset"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// TestAttributedImpactWorkedExample is the worked example of the package
// documentation, computed by hand: three application samples, two
// benchmarks that share only a runtime leaf.
func TestAttributedImpactWorkedExample(t *testing.T) {
	const memclr = "runtime.memclrNoHeapPointers"
	app := proftest.Profile(
		proftest.Stack{Frames: []string{"p.Serve", "p.Encode", memclr}, Nanos: 40e6},
		proftest.Stack{Frames: []string{"p.Serve", "p.Parse", memclr}, Nanos: 40e6},
		proftest.Stack{Frames: []string{"runtime.gcBgMarkWorker", memclr}, Nanos: 20e6},
	)
	enc := proftest.Profile(proftest.Stack{Frames: []string{"p.BenchmarkEncode", "p.Encode", memclr}, Nanos: 1e7})
	parse := proftest.Profile(proftest.Stack{Frames: []string{"p.BenchmarkParse", "p.Parse", memclr}, Nanos: 1e7})
	r := compute(t, callgraph.Options{Modules: []string{"p"}}, app, map[string]*profile.Profile{"BenchmarkEncode": enc, "BenchmarkParse": parse})

	require.Len(t, r.Sets, 2)
	for _, s := range r.Sets {
		assert.InDelta(t, 0.100, s.ImpactSeconds, tol, "%s: flat impact is all of memclr's time", s.ID)
		assert.InDelta(t, 1.0, s.ImpactShare, tol, s.ID)
		assert.InDelta(t, 0.040, s.AttributedImpactSeconds, tol, "%s: only its own project function's samples", s.ID)
		assert.InDelta(t, 0.4, s.AttributedImpactShare, tol, s.ID)
	}
	assert.InDelta(t, 0.020, r.App.OutsideProject, tol, "the GC worker's sample")
	assert.InDelta(t, 0.080, r.ImpactOf(coverage.AttributedImpact, r.Covered), tol, "the suite")
	assert.InDelta(t, 0.100, r.ImpactOf(coverage.FlatImpact, r.Covered), tol)
	assert.InDelta(t, r.Impact(r.Covered), r.ImpactOf(coverage.FlatImpact, r.Covered), 0, "Impact is the flat impact")
}

// TestAttributedImpactFigure62 checks the dissertation's Figure 6.2
// fixture: benchmark 2's covered leaves 11 and 17 are project nodes, so
// each owns its own samples and its attributed impact equals its flat one.
func TestAttributedImpactFigure62(t *testing.T) {
	r := figure62(t)
	b2 := r.Sets[1]
	assert.InDelta(t, 0.04, b2.AttributedImpactSeconds, tol, "11 (10ms) and 17 (30ms) are project leaves")
	assert.InDelta(t, b2.ImpactSeconds, b2.AttributedImpactSeconds, tol)
}

func TestParseImpactKind(t *testing.T) {
	for _, k := range []coverage.ImpactKind{coverage.AttributedImpact, coverage.FlatImpact} {
		got, err := coverage.ParseImpactKind(k.String())
		require.NoError(t, err)
		assert.Equal(t, k, got)
	}
	_, err := coverage.ParseImpactKind("self")
	assert.EqualError(t, err, `invalid impact "self": valid values are {attributed|flat}`)
	assert.Equal(t, coverage.AttributedImpact, coverage.ImpactKind(0), "the zero value is attributed")
}

func compute(t *testing.T, opts callgraph.Options, app *profile.Profile, benches map[string]*profile.Profile) *coverage.Result {
	t.Helper()
	ga := mustGraph(t, app, opts)
	var bs []coverage.Benchmark
	for id, p := range benches {
		g := mustGraph(t, p, opts)
		bs = append(bs, coverage.Benchmark{ID: id, Graph: g})
	}
	return coverage.Compute(ga, bs)
}

// exampleBenchmarks loads the benchmark profiles of the committed example
// in dir (micro/*.pprof), each under its file name without ".pprof". An
// unusable profile fails t when strict and is left out otherwise.
func exampleBenchmarks(t *testing.T, dir string, opts callgraph.Options, strict bool) []coverage.Benchmark {
	t.Helper()
	micro, err := filepath.Glob(filepath.Join(dir, "micro", "*.pprof"))
	require.NoError(t, err)
	var benches []coverage.Benchmark
	for _, m := range micro {
		g, err := callgraph.Load([]string{m}, opts)
		if err != nil && !strict {
			continue
		}
		require.NoError(t, err, m)
		benches = append(benches, coverage.Benchmark{ID: strings.TrimSuffix(filepath.Base(m), ".pprof"), Graph: g})
	}
	return benches
}

// checkDisjointShares enumerates every family of sets of r with pairwise
// disjoint project coverage (up to limit families) and fails unless their
// attributed shares add up to at most 1 and equal the attributed share of
// their union. It returns the number of families checked and the largest
// sum of the flat shares of such a family.
func checkDisjointShares(t *testing.T, r *coverage.Result, limit int) (families int, maxFlat float64) {
	t.Helper()
	project := make([]bitset.Set, len(r.Sets))
	for i, s := range r.Sets {
		project[i] = s.Nodes.Clone()
		project[i].And(r.ProjectMask)
	}
	union := bitset.New(r.App.Len())
	var walk func(next int, attributed, flat float64)
	walk = func(next int, attributed, flat float64) {
		if families >= limit {
			return
		}
		families++
		maxFlat = max(maxFlat, flat)
		if attributed > 1+1e-9 {
			t.Fatalf("disjoint family with attributed shares summing to %g > 1", attributed)
		}
		assert.InDelta(t, r.Share(r.ImpactOf(coverage.AttributedImpact, union)), attributed, 1e-9, "a disjoint family's shares add up to its union's")
		for i := next; i < len(r.Sets); i++ {
			if union.IntersectionLen(project[i]) > 0 {
				continue
			}
			saved := union.Clone()
			union.Or(project[i])
			walk(i+1, attributed+r.Sets[i].AttributedImpactShare, flat+r.Sets[i].ImpactShare)
			union = saved
		}
	}
	walk(0, 0, 0)
	return families, maxFlat
}

// TestAttributedSharesOfDisjointSetsOnExample is the property of issue 9
// on the committed example (testdata/profiles/example): for every family
// of benchmarks whose project coverage is pairwise disjoint, the
// attributed shares add up to at most 100%, and the suite's attributed
// share is at most 100%. Flat shares do not have this property.
func TestAttributedSharesOfDisjointSetsOnExample(t *testing.T) {
	dir := filepath.Join("..", "testdata", "profiles", "example")
	if _, err := os.Stat(filepath.Join(dir, "app.pprof")); err != nil {
		t.Skipf("example profiles not collected yet (%v); run make profiles", err)
	}
	opts := callgraph.Options{Modules: []string{"example.com/tinytsdb"}}
	app, err := callgraph.Load([]string{filepath.Join(dir, "app.pprof")}, opts)
	require.NoError(t, err)
	r := coverage.Compute(app, exampleBenchmarks(t, dir, opts, true))
	require.NotEmpty(t, r.Sets)

	suite := r.Share(r.ImpactOf(coverage.AttributedImpact, r.Covered))
	assert.LessOrEqual(t, suite, 1.0, "the suite's attributed share")
	assert.InDelta(t, 1, suite+r.Share(r.App.OutsideProject)+r.Share(uncoveredAttributed(r)), 1e-9,
		"suite + outside the project + uncovered project functions = all the time")
	var sumAttributed, sumFlat float64
	for _, s := range r.Sets {
		sumAttributed += s.AttributedImpactShare
		sumFlat += s.ImpactShare
		assert.LessOrEqual(t, s.AttributedImpactShare, 1.0, s.ID)
	}
	families, maxFlat := checkDisjointShares(t, r, 1_000_000)
	t.Logf("%d benchmarks: suite attributed share %.3f; sum over all benchmarks: attributed %.3f, flat %.3f; %d disjoint families checked, largest flat sum %.3f",
		len(r.Sets), suite, sumAttributed, sumFlat, families, maxFlat)
	assert.Greater(t, families, len(r.Sets), "some benchmarks have disjoint project coverage")
}

// uncoveredAttributed is the attributed time of the application's project
// nodes that no benchmark covers.
func uncoveredAttributed(r *coverage.Result) float64 {
	un := r.ProjectMask.Clone()
	un.AndNot(r.Covered)
	return r.ImpactOf(coverage.AttributedImpact, un)
}

// TestAttributedSharesRandom checks the same property on random
// applications and suites: random stacks over a few project and external
// functions (some inlined, some recursive, some without any project
// frame) and random benchmarks.
func TestAttributedSharesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 2))
	names := []string{"p.A", "p.B", "p.C", "p.D", "p.E", "q.X", "q.Y", "runtime.memclr", "syscall.Syscall6"}
	frame := func() string {
		f := names[rng.IntN(len(names))]
		if rng.IntN(5) == 0 { // an inlined callee
			f += "+" + names[rng.IntN(len(names))]
		}
		return f
	}
	stack := func(n int) proftest.Stack {
		fs := make([]string, 1+rng.IntN(n))
		for i := range fs {
			fs[i] = frame()
		}
		return proftest.Stack{Frames: fs, Nanos: int64(1+rng.IntN(9)) * 1e7}
	}
	for trial := range 200 {
		var app []proftest.Stack
		for range 1 + rng.IntN(30) {
			app = append(app, stack(6))
		}
		benches := map[string]*profile.Profile{}
		for b := range 1 + rng.IntN(8) {
			benches[string(rune('a'+b))] = proftest.Profile(stack(4))
		}
		r := compute(t, callgraph.Options{Modules: []string{"p"}}, proftest.Profile(app...), benches)
		suite := r.Share(r.ImpactOf(coverage.AttributedImpact, r.Covered))
		require.LessOrEqual(t, suite, 1+1e-9, "trial %d: suite's attributed share", trial)
		checkDisjointShares(t, r, 10_000)
	}
}
