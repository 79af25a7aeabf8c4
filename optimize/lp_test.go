package optimize_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
)

func ones(names ...string) map[string]int64 {
	m := map[string]int64{}
	for _, n := range names {
		m[n] = 1
	}
	return m
}

func TestCertifyKnownLP(t *testing.T) {
	r1 := []string{"p.1", "p.2", "p.3", "p.4", "p.5", "p.6", "p.7"}
	r2 := []string{"p.8", "p.9", "p.10", "p.11", "p.12", "p.13", "p.14"}
	tests := []struct {
		name      string
		app       map[string]int64
		benches   map[string][]string
		greedy    int
		lp        float64
		bound     int
		essential int
	}{
		{
			// Every node lies in two of three sets: x = ½ each is
			// feasible (LP 1.5), and y = ½ on each node is a dual
			// solution of the same value, so the LP optimum is 1.5 and
			// the bound ⌈1.5⌉ = 2 = greedy.
			name:    "triangle: fractional optimum",
			app:     ones("p.a", "p.b", "p.c"),
			benches: map[string][]string{"X": {"p.a", "p.b"}, "Y": {"p.b", "p.c"}, "Z": {"p.a", "p.c"}},
			greedy:  2, lp: 1.5, bound: 2,
		},
		{
			// Two rows of 7 nodes; columns of 8, 4 and 2 nodes cut
			// across them. Greedy takes C1 (8 > 7), C2 (4 > 3), C3 (2 >
			// 1): three picks. The rows cover everything with two (LP
			// ≤ 2); the dual y(p.7) = y(p.12) = 1 is feasible (each set
			// holds at most one of them), so the LP optimum is 2.
			name: "greedy one above the optimum",
			app:  ones(append(append([]string{}, r1...), r2...)...),
			benches: map[string][]string{
				"R1": r1, "R2": r2,
				"C1": {"p.1", "p.2", "p.3", "p.4", "p.8", "p.9", "p.10", "p.11"},
				"C2": {"p.5", "p.6", "p.12", "p.13"},
				"C3": {"p.7", "p.14"},
			},
			greedy: 3, lp: 2, bound: 2,
		},
		{
			// p.c is covered by Y alone, so Y is essential; X is the only
			// one covering p.a. LP 2 = essential.
			name:    "essential benchmarks",
			app:     ones("p.a", "p.b", "p.c"),
			benches: map[string][]string{"X": {"p.a", "p.b"}, "Y": {"p.b", "p.c"}, "W": {"p.b"}},
			greedy:  2, lp: 2, bound: 2, essential: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cov := instance(t, tt.app, tt.benches)
			c, err := optimize.Certify(cov, optimize.CertifyOptions{})
			require.NoError(t, err)
			require.True(t, c.Solved, c.Skipped)
			assert.Equal(t, tt.greedy, c.Greedy, "greedy")
			assert.InDelta(t, tt.lp, c.LP, 1e-9, "LP")
			assert.Equal(t, tt.bound, c.LowerBound, "bound")
			assert.Equal(t, tt.essential, c.Essential, "essential")
			assert.Equal(t, tt.greedy-tt.bound, c.Gap())
		})
	}
}

func TestCertifySkipsLargeLP(t *testing.T) {
	cov := instance(t, ones("p.a", "p.b", "p.c"),
		map[string][]string{"X": {"p.a", "p.b"}, "Y": {"p.b", "p.c"}, "Z": {"p.a", "p.c"}})
	c, err := optimize.Certify(cov, optimize.CertifyOptions{MaxCells: 5})
	require.NoError(t, err)
	assert.False(t, c.Solved)
	assert.Equal(t, "LP of 3 rows × 3 columns (18 cells with surplus variables) is over the limit of 5 cells", c.Skipped)
	assert.Equal(t, 0, c.LowerBound, "no essential benchmark")
}

// On random instances the bound must lie between the LP-free essential
// count and the true optimum (brute force), and never above the greedy.
func TestCertifyBoundIsValid(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for trial := 0; trial < 150; trial++ {
		cov := randomInstance(t, rng)
		c, err := optimize.Certify(cov, optimize.CertifyOptions{})
		require.NoError(t, err)
		require.True(t, c.Solved)
		opt := minCover(cov)
		require.LessOrEqual(t, c.LowerBound, opt, "trial %d", trial)
		require.LessOrEqual(t, opt, c.Greedy, "trial %d", trial)
		require.LessOrEqual(t, c.Essential, c.LowerBound, "trial %d", trial)
		require.LessOrEqual(t, c.LP, float64(opt)+1e-9, "trial %d", trial)
	}
}

// minCover is the smallest number of sets covering the project nodes of
// cov.Covered, by brute force.
func minCover(cov *coverage.Result) int {
	target := cov.Covered.Clone()
	target.And(cov.ProjectMask)
	n := len(cov.Sets)
	best := n
	for m := 0; m < 1<<n; m++ {
		k := 0
		u := target.Clone()
		for i := range u {
			u[i] = 0
		}
		for i := 0; i < n; i++ {
			if m&(1<<i) != 0 {
				k++
				u.Or(cov.Sets[i].Nodes)
			}
		}
		if k < best && target.AndNotLen(target, u) == 0 {
			best = k
		}
	}
	return best
}

// BenchmarkCertifyLP times the LP at about DefaultMaxLPCells, to keep the
// documented limit honest.
func BenchmarkCertifyLP(b *testing.B) {
	rng := rand.New(rand.NewSource(5))
	app := map[string]int64{}
	for i := 0; i < 120; i++ {
		app[fmt.Sprintf("p.f%03d", i)] = 1
	}
	benches := map[string][]string{}
	for j := 0; j < 200; j++ {
		var nodes []string
		for i := 0; i < 120; i++ {
			if rng.Intn(25) == 0 {
				nodes = append(nodes, fmt.Sprintf("p.f%03d", i))
			}
		}
		benches[fmt.Sprintf("B%03d", j)] = append(nodes, "q.filler")
	}
	cov := instance(&testing.T{}, app, benches)
	c, err := optimize.Certify(cov, optimize.CertifyOptions{MaxCells: -1})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("reduced to %d rows × %d cols (%d cells), LP %.3f, greedy %d", c.Rows, c.Cols, c.Rows*(c.Rows+c.Cols), c.LP, c.Greedy)
	b.ResetTimer()
	for range b.N {
		if _, err := optimize.Certify(cov, optimize.CertifyOptions{MaxCells: -1}); err != nil {
			b.Fatal(err)
		}
	}
}
