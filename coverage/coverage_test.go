package coverage_test

import (
	"fmt"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/testkit/proftest"
)

const tol = 1e-9

// mustGraph builds p's call graph with opts, failing t on error.
func mustGraph(t *testing.T, p *profile.Profile, opts callgraph.Options) *callgraph.Graph {
	t.Helper()
	g, err := callgraph.New(p, opts)
	require.NoError(t, err)
	return g
}

func figure62(t *testing.T) *coverage.Result {
	t.Helper()
	app, b1, b2 := proftest.Figure62()
	opts := callgraph.Options{Modules: []string{proftest.Figure62Module}}
	ga := mustGraph(t, app, opts)
	g1 := mustGraph(t, b1, opts)
	g2 := mustGraph(t, b2, opts)
	// Given in reverse order: the result must be sorted by id anyway.
	return coverage.Compute(ga, []coverage.Benchmark{{ID: "benchmark2", Graph: g2}, {ID: "benchmark1", Graph: g1}})
}

// TestFigure62Coverage checks the worked example of section 6.2.1:
// project-only coverage 5/10 = 0.5 and overall 6/19 ≈ 0.316.
func TestFigure62Coverage(t *testing.T) {
	r := figure62(t)
	assert.Equal(t, coverage.Ratio{Covered: 5, Total: 10, Ratio: 0.5}, r.Project)
	assert.Equal(t, 6, r.Overall.Covered)
	assert.Equal(t, 19, r.Overall.Total)
	assert.InDelta(t, 0.316, r.Overall.Ratio, 0.0005)

	require.Len(t, r.Sets, 2)
	b1, b2 := r.Sets[0], r.Sets[1]
	assert.Equal(t, "benchmark1", b1.ID)
	assert.Equal(t, 2, b1.OverallNodes, "benchmark 1 covers two nodes")
	assert.Equal(t, 2, b1.ProjectNodes)
	assert.Equal(t, 4, b2.OverallNodes, "benchmark 2 covers four nodes")
	assert.Equal(t, 3, b2.ProjectNodes)
	assert.Equal(t, 4, b1.GraphNodes, "4, 14, BenchmarkOne and testing.(*B).runN")

	// Impact: flat time of 4 (0) and 14 (0) for benchmark 1; of 2 (0),
	// 7 (0), 11 (10ms) and 17 (30ms) for benchmark 2. Total app time 90ms.
	assert.InDelta(t, 0.0, b1.ImpactSeconds, tol)
	assert.InDelta(t, 0.04, b2.ImpactSeconds, tol)
	assert.InDelta(t, 0.04/0.09, b2.ImpactShare, tol)

	i, ok := r.Index("benchmark2")
	assert.True(t, ok)
	assert.Equal(t, 1, i)
	_, ok = r.Index("nope")
	assert.False(t, ok)
}

// A third benchmark covering only already covered nodes (14 and 17) does
// not change the coverage figures (section 6.2.1).
func TestRedundantBenchmarkKeepsCoverage(t *testing.T) {
	opts := callgraph.Options{Modules: []string{proftest.Figure62Module}}
	app, b1, b2 := proftest.Figure62()
	b3 := proftest.Profile(proftest.Stack{Frames: []string{"x.Bench3", proftest.Figure62Name(14), proftest.Figure62Name(17)}, Nanos: 1e7})
	ga := mustGraph(t, app, opts)
	var benches []coverage.Benchmark
	for i, p := range []*profile.Profile{b1, b2, b3} {
		g := mustGraph(t, p, opts)
		benches = append(benches, coverage.Benchmark{ID: fmt.Sprintf("b%d", i+1), Graph: g})
	}
	r2 := coverage.Compute(ga, benches[:2])
	r3 := coverage.Compute(ga, benches)
	assert.Equal(t, r2.Project, r3.Project)
	assert.Equal(t, r2.Overall, r3.Overall)
	assert.Equal(t, 2, r3.Sets[2].OverallNodes)
}

func TestDuplicateIDPanics(t *testing.T) {
	app, b1, _ := proftest.Figure62()
	ga, _ := callgraph.New(app, callgraph.Options{})
	g1, _ := callgraph.New(b1, callgraph.Options{})
	assert.PanicsWithValue(t, "coverage: duplicate benchmark id x", func() {
		coverage.Compute(ga, []coverage.Benchmark{{ID: "x", Graph: g1}, {ID: "x", Graph: g1}})
	})
}
