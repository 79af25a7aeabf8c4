package coverage_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/testkit/golden"
	"github.com/mbopt/mbopt/testkit/proftest"
)

func stacks(names ...string) *profile.Profile {
	var ss []proftest.Stack
	for _, n := range names {
		ss = append(ss, proftest.Stack{Frames: []string{n}, Nanos: 1e7})
	}
	return proftest.Profile(ss...)
}

// handScenarios returns the three hand-computed scenarios A, B and C below
// with the weights given, their union graph, and the options (module "p")
// that built them.
func handScenarios(t *testing.T, weights ...float64) (*callgraph.Graph, []coverage.Scenario, callgraph.Options) {
	t.Helper()
	opts := callgraph.Options{Modules: []string{"p"}}
	profs := []*profile.Profile{
		stacks("p.a", "p.b", "p.c", "p.d", "x.x"),
		stacks("p.a", "p.b", "p.e", "x.x", "x.y"),
		stacks("p.a", "p.f"),
	}
	union, err := callgraph.Merge(profs, opts)
	require.NoError(t, err)
	var scs []coverage.Scenario
	for i, p := range profs {
		g := mustGraph(t, p, opts)
		scs = append(scs, coverage.Scenario{Name: string(rune('A' + i)), Graph: g, Weight: weights[i]})
	}
	return union, scs, opts
}

// Three scenarios over project nodes a..f and external x, y:
//
//	A = {a b c d x}   B = {a b e x y}   C = {a f}
//
// Project: |A| = 4, |B| = 3, |C| = 2; A∩B = {a b} = 2, A∩C = {a} = 1,
// B∩C = {a} = 1. Shares by row: A→B 2/4, B→A 2/3, C→A 1/2. Unique: A {c d},
// B {e}, C {f}; common {a}; union 6.
func TestScenariosHandComputed(t *testing.T) {
	union, scs, opts := handScenarios(t, 0, 1, 2)
	bg := mustGraph(t, stacks("p.a", "p.e", "x.y"), opts)
	ss := coverage.Scenarios(union, scs, []coverage.Benchmark{{ID: "b", Graph: bg}})

	assert.Equal(t, []int{4, 3, 2}, ss.Project.Sizes)
	assert.Equal(t, [][]int{{4, 2, 1}, {2, 3, 1}, {1, 1, 2}}, ss.Project.Counts)
	assert.InDeltaSlice(t, []float64{1, 0.5, 0.25}, ss.Project.Shares[0], tol)
	assert.InDeltaSlice(t, []float64{2.0 / 3, 1, 1.0 / 3}, ss.Project.Shares[1], tol)
	assert.InDeltaSlice(t, []float64{0.5, 0.5, 1}, ss.Project.Shares[2], tol)
	assert.Equal(t, []int{2, 1, 1}, ss.Project.Unique)
	assert.Equal(t, 1, ss.Project.Common)
	assert.Equal(t, 6, ss.Project.Union)
	assert.Equal(t, [][]int{{5, 3, 1}, {3, 5, 1}, {1, 1, 2}}, ss.Overall.Counts)
	assert.Equal(t, []int{2, 2, 1}, ss.Overall.Unique, "x.y only in B")

	// The benchmark covers a (everywhere), e (B) and y (B).
	assert.Equal(t, coverage.Ratio{Covered: 1, Total: 4, Ratio: 0.25}, ss.Each[0].Project)
	assert.Equal(t, 2, ss.Each[1].Project.Covered)
	assert.Equal(t, 3, ss.Union.Overall.Covered)
	assert.Equal(t, []float64{1, 1, 2}, ss.Weights, "weight 0 means 1")

	w := ss.NodeWeights(false, coverage.AttributedImpact)
	id, _ := union.Lookup("p.a")
	assert.Equal(t, 4.0, w[id], "a is in all three scenarios: 1 + 1 + 2")
	id, _ = union.Lookup("p.f")
	assert.Equal(t, 2.0, w[id])
	wi := ss.NodeWeights(true, coverage.FlatImpact)
	assert.InDelta(t, 0.02, wi[id], tol, "f: weight 2 × 0.01s")
	wa := ss.NodeWeights(true, coverage.AttributedImpact)
	assert.InDelta(t, 0.02, wa[id], tol, "f is a project leaf: attributed = flat")
	y, _ := union.Lookup("x.y")
	assert.InDelta(t, 0.01, wi[y], tol, "x.y: weight 1 × 0.01s flat")
	assert.InDelta(t, 0, wa[y], tol, "x.y is external: no attributed time")
}

func TestProjectCurvesHandComputed(t *testing.T) {
	// The scenarios of TestScenariosHandComputed: A = {a b c d x},
	// B = {a b e x y}, C = {a f}; project sizes 4, 3 and 2.
	union, scs, _ := handScenarios(t, 0, 0, 0)
	ss := coverage.Scenarios(union, scs, nil)
	ids := func(names ...string) []int {
		var out []int
		for _, n := range names {
			id, ok := union.Lookup(n)
			require.True(t, ok, n)
			out = append(out, id)
		}
		return out
	}
	tests := []struct {
		name  string
		picks [][]int
		want  [][]float64
	}{
		{"no picks", nil, [][]float64{{}, {}, {}}},
		{
			// Pick 1 adds a and x (x is external: it counts nowhere);
			// pick 2 adds b and e; pick 3 adds f and a again (already
			// covered: no double count).
			"three picks",
			[][]int{ids("p.a", "x.x"), ids("p.b", "p.e"), ids("p.f", "p.a")},
			[][]float64{{1.0 / 4, 2.0 / 4, 2.0 / 4}, {1.0 / 3, 3.0 / 3, 3.0 / 3}, {1.0 / 2, 1.0 / 2, 2.0 / 2}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ss.ProjectCurves(tt.picks)
			require.Len(t, got, len(tt.want))
			for i := range tt.want {
				assert.NotNil(t, got[i], "scenario %d: an empty curve is an empty slice, not nil (JSON [])", i)
				assert.InDeltaSlice(t, tt.want[i], got[i], tol, "scenario %s", ss.Names[i])
			}
		})
	}
}

func TestScenariosDuplicateNamePanics(t *testing.T) {
	g := mustGraph(t, stacks("p.a"), callgraph.Options{})
	assert.PanicsWithValue(t, "coverage: duplicate scenario name s", func() {
		coverage.Scenarios(g, []coverage.Scenario{{Name: "s", Graph: g}, {Name: "s", Graph: g}}, nil)
	})
}

// TestScenarioOverlapGolden computes Table 6.4 for the example
// application's three recorded scenarios (testdata/profiles/example,
// written by testdata/example/collect-profiles.sh) and compares it with
// testdata/golden/scenario-overlap.golden; -update rewrites it.
func TestScenarioOverlapGolden(t *testing.T) {
	dir := filepath.Join("..", "testdata", "profiles", "example")
	files := []struct{ name, file string }{
		{"mixed", "app.pprof"}, {"ingest", "app-ingest.pprof"}, {"query", "app-query.pprof"},
	}
	opts := callgraph.Options{Modules: []string{"example.com/tinytsdb"}}
	var paths []string
	var scs []coverage.Scenario
	for _, f := range files {
		path := filepath.Join(dir, f.file)
		if _, err := os.Stat(path); err != nil {
			t.Skipf("example profiles not collected yet (%v); run make profiles", err)
		}
		g, err := callgraph.Load([]string{path}, opts)
		require.NoError(t, err)
		paths = append(paths, path)
		scs = append(scs, coverage.Scenario{Name: f.name, Graph: g})
	}
	union, err := callgraph.Load(paths, opts)
	require.NoError(t, err)
	// Unusable benchmark profiles are the analysis's business.
	benches := exampleBenchmarks(t, dir, opts, false)
	ss := coverage.Scenarios(union, scs, benches)

	var b bytes.Buffer
	fmt.Fprintf(&b, "Pair-wise overlap between scenarios (row: share of the row scenario's functions the column scenario also calls)\n")
	for _, kind := range []struct {
		name string
		o    coverage.Overlap
	}{{"overall", ss.Overall}, {"project-only", ss.Project}} {
		fmt.Fprintf(&b, "\n%s\n%-8s", kind.name, "")
		for _, n := range ss.Names {
			fmt.Fprintf(&b, "%16s", n)
		}
		fmt.Fprintln(&b)
		for i, n := range ss.Names {
			fmt.Fprintf(&b, "%-8s", n)
			for j := range ss.Names {
				cell := "same"
				if i != j {
					cell = fmt.Sprintf("%d (%.2f%%)", kind.o.Counts[i][j], 100*kind.o.Shares[i][j])
				}
				fmt.Fprintf(&b, "%16s", cell)
			}
			fmt.Fprintf(&b, "   size %d, unique %d\n", kind.o.Sizes[i], kind.o.Unique[i])
		}
		fmt.Fprintf(&b, "union %d, common to all %d\n", kind.o.Union, kind.o.Common)
	}
	fmt.Fprintf(&b, "\nCoverage by the %d benchmarks\n", len(benches))
	for i, n := range ss.Names {
		e := ss.Each[i]
		fmt.Fprintf(&b, "%-8s project %d/%d (%.2f%%), overall %d/%d (%.2f%%)\n", n, e.Project.Covered, e.Project.Total, 100*e.Project.Ratio, e.Overall.Covered, e.Overall.Total, 100*e.Overall.Ratio)
	}
	u := ss.Union
	fmt.Fprintf(&b, "%-8s project %d/%d (%.2f%%), overall %d/%d (%.2f%%)\n", "union", u.Project.Covered, u.Project.Total, 100*u.Project.Ratio, u.Overall.Covered, u.Overall.Total, 100*u.Overall.Ratio)

	golden.Check(t, filepath.Join("..", "testdata", "golden", "scenario-overlap.golden"), b.Bytes())

	// Invariants that hold whatever the profiles: the matrix is
	// symmetric in counts and the union graph holds every scenario.
	for i := range ss.Names {
		for j := range ss.Names {
			assert.Equal(t, ss.Overall.Counts[i][j], ss.Overall.Counts[j][i])
		}
		assert.LessOrEqual(t, ss.Each[i].Overall.Total, u.Overall.Total)
	}
}
