package optimize_test

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// instance builds a coverage result from a compact description: app maps
// node names to their flat milliseconds (names starting with "p." are
// project nodes, "x." external); benches maps ids to the app nodes they
// hit, plus any "filler" nodes that only make their graph larger.
func instance(t *testing.T, app map[string]int64, benches map[string][]string) *coverage.Result {
	t.Helper()
	var stacks []proftest.Stack
	for name, ms := range app {
		stacks = append(stacks, proftest.Stack{Frames: []string{name}, Nanos: ms * 1e6})
	}
	opts := callgraph.Options{Modules: []string{"p"}}
	ga, err := callgraph.New(proftest.Profile(stacks...), opts)
	require.NoError(t, err)
	var bs []coverage.Benchmark
	for id, nodes := range benches {
		g, err := callgraph.New(proftest.Profile(proftest.Stack{Frames: nodes, Nanos: 1e7}), opts)
		require.NoError(t, err)
		bs = append(bs, coverage.Benchmark{ID: id, Graph: g})
	}
	return coverage.Compute(ga, bs)
}

func TestFigure62MinimalSuite(t *testing.T) {
	cov := proftest.Figure62Coverage()

	for _, nodes := range []optimize.Nodes{optimize.ProjectNodes, optimize.AllNodes} {
		r := optimize.Greedy(cov, optimize.Options{Nodes: nodes})
		require.Equal(t, []string{"benchmark2", "benchmark1"}, r.IDs(), nodes.String())
		last := r.Steps[1]
		assert.Equal(t, cov.Project, last.CumulativeProject)
		assert.Equal(t, cov.Overall, last.CumulativeOverall)
	}
	r := optimize.Greedy(cov, optimize.Options{})
	assert.Equal(t, 3, r.Steps[0].Added, "2, 7 and 17 are project nodes; 11 is not")
	assert.Equal(t, 4, r.Steps[0].AddedOverall)
	assert.Equal(t, 3, r.Steps[0].CumulativeProject.Covered)
	assert.InDelta(t, 0.04, r.Steps[0].AddedImpactSeconds, 1e-9)
	assert.InDelta(t, 0.04, r.Steps[1].CumulativeImpactSeconds, 1e-9)
}

// Hand-checked cases, each with the expected picks and gains.
func TestGreedyHandChecked(t *testing.T) {
	tests := []struct {
		name    string
		app     map[string]int64
		benches map[string][]string
		nodes   optimize.Nodes
		want    []string
		gains   []int
	}{
		{
			name:    "largest first, then re-evaluated gains",
			app:     map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1, "p.d": 1, "p.e": 1, "p.f": 1},
			benches: map[string][]string{"A": {"p.a", "p.b", "p.c", "p.d"}, "B": {"p.a", "p.b", "p.e"}, "C": {"p.c", "p.f"}},
			// A adds 4; then B adds only e (1) and C only f (1): tie on
			// gain and on impact (1ms each) and size 3 vs 2 → C first.
			want:  []string{"A", "C", "B"},
			gains: []int{4, 1, 1},
		},
		{
			name:    "redundant benchmark is never picked",
			app:     map[string]int64{"p.a": 1, "p.b": 1, "p.c": 1},
			benches: map[string][]string{"big": {"p.a", "p.b", "p.c"}, "sub": {"p.a", "p.c"}},
			want:    []string{"big"},
			gains:   []int{3},
		},
		{
			name:    "tie on gain: larger added impact wins",
			app:     map[string]int64{"p.a": 1, "p.b": 5, "p.c": 1, "p.d": 1},
			benches: map[string][]string{"A": {"p.a", "p.c"}, "B": {"p.b", "p.d"}},
			want:    []string{"B", "A"},
			gains:   []int{2, 2},
		},
		{
			name:    "tie on gain and impact: smaller graph wins",
			app:     map[string]int64{"p.a": 1, "p.b": 1},
			benches: map[string][]string{"A": {"p.a", "x.filler1", "x.filler2"}, "B": {"p.b", "x.filler1"}},
			want:    []string{"B", "A"},
			gains:   []int{1, 1},
		},
		{
			name:    "full tie: smaller id wins",
			app:     map[string]int64{"p.a": 1, "p.b": 1},
			benches: map[string][]string{"Zed": {"p.a"}, "Ann": {"p.b"}},
			want:    []string{"Ann", "Zed"},
			gains:   []int{1, 1},
		},
		{
			name:    "project criterion ignores external-only gains",
			app:     map[string]int64{"p.a": 1, "x.b": 9, "x.c": 9},
			benches: map[string][]string{"ext": {"x.b", "x.c"}, "proj": {"p.a"}},
			want:    []string{"proj"},
			gains:   []int{1},
		},
		{
			name:    "all-nodes criterion counts them",
			app:     map[string]int64{"p.a": 1, "x.b": 9, "x.c": 9},
			benches: map[string][]string{"ext": {"x.b", "x.c"}, "proj": {"p.a"}},
			nodes:   optimize.AllNodes,
			want:    []string{"ext", "proj"},
			gains:   []int{2, 1},
		},
		{
			name:    "benchmark covering nothing",
			app:     map[string]int64{"p.a": 1},
			benches: map[string][]string{"none": {"q.other"}},
			want:    nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cov := instance(t, tt.app, tt.benches)
			r := optimize.Greedy(cov, optimize.Options{Nodes: tt.nodes})
			var ids []string
			var gains []int
			for _, s := range r.Steps {
				ids = append(ids, s.ID)
				gains = append(gains, s.Added)
			}
			assert.Equal(t, tt.want, ids)
			assert.Equal(t, tt.gains, gains)
		})
	}
}

// eager is the textbook greedy with the same tie-break, evaluated in full
// each round: the reference the lazy version must match exactly.
func eager(cov *coverage.Result, nodes optimize.Nodes, kind coverage.ImpactKind) []string {
	mask := cov.ProjectMask
	if nodes == optimize.AllNodes {
		mask = cov.AllMask
	}
	covered := cov.Covered.Clone()
	for i := range covered {
		covered[i] = 0
	}
	var picks []string
	used := map[int]bool{}
	for {
		best, bestGain, bestImp := -1, 0, 0.0
		for i, s := range cov.Sets {
			if used[i] {
				continue
			}
			g := s.Nodes.AndNotLen(mask, covered)
			if g == 0 {
				continue
			}
			added := s.Nodes.Clone()
			added.AndNot(covered)
			imp := cov.ImpactOf(kind, added)
			better := best < 0 || g > bestGain ||
				(g == bestGain && imp > bestImp) ||
				(g == bestGain && imp == bestImp && s.GraphNodes < cov.Sets[best].GraphNodes) ||
				(g == bestGain && imp == bestImp && s.GraphNodes == cov.Sets[best].GraphNodes && s.ID < cov.Sets[best].ID)
			if better {
				best, bestGain, bestImp = i, g, imp
			}
		}
		if best < 0 {
			return picks
		}
		used[best] = true
		picks = append(picks, cov.Sets[best].ID)
		covered.Or(cov.Sets[best].Nodes)
	}
}

func TestLazyMatchesEager(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 200; trial++ {
		cov := randomInstance(t, rng)
		for _, nodes := range []optimize.Nodes{optimize.ProjectNodes, optimize.AllNodes} {
			for _, kind := range []coverage.ImpactKind{coverage.AttributedImpact, coverage.FlatImpact} {
				got := optimize.Greedy(cov, optimize.Options{Nodes: nodes, Impact: kind}).IDs()
				if len(got) == 0 {
					got = nil
				}
				require.Equal(t, eager(cov, nodes, kind), got, "trial %d, %s, %s impact", trial, nodes, kind)
			}
		}
	}
}

func TestParseNodes(t *testing.T) {
	n, err := optimize.ParseNodes("all")
	require.NoError(t, err)
	assert.Equal(t, optimize.AllNodes, n)
	_, err = optimize.ParseNodes("some")
	assert.EqualError(t, err, `invalid node criterion "some": valid values are {project|all}`)
}

// A pick is marginal when the application time it newly covers, by the
// impact the selection ranks with, is under 1% of the application's.
func TestMarginal(t *testing.T) {
	// 1 s in all: helper's 5 ms is 0.5% attributed; with the external
	// syscall beneath it the pick adds 20 ms (2%) of flat time.
	cov := instance(t, map[string]int64{"p.hot": 980, "p.helper": 5, "x.sys": 15}, map[string][]string{
		"A": {"p.hot"},
		"B": {"p.helper", "x.sys"},
	})
	tests := []struct {
		impact coverage.ImpactKind
		want   []bool
	}{
		{coverage.AttributedImpact, []bool{false, true}},
		{coverage.FlatImpact, []bool{false, false}},
	}
	for _, tt := range tests {
		t.Run(tt.impact.String(), func(t *testing.T) {
			r := optimize.Greedy(cov, optimize.Options{Impact: tt.impact})
			require.Equal(t, []string{"A", "B"}, r.IDs())
			var got []bool
			for _, s := range r.Steps {
				got = append(got, s.Marginal)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
