package history

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
)

// TestSeriesAcrossRebaseline: after a bridging comparison of the old
// baseline a with the new one m (10% slower), the comparisons against m
// continue a's series, and the other way round (issue 23 item 4).
func TestSeriesAcrossRebaseline(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	add := func(r *compare.Report, depth int) {
		t.Helper()
		r.Head.Depth = depth
		_, err := s.Add(ctx, r, testMachine)
		require.NoError(t, err)
	}
	add(report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkA": 0, "BenchmarkB": 0}), 2)
	add(report('a', 'c', 2, 0.01, map[string]float64{"BenchmarkA": 0.10, "BenchmarkB": 0}), 3)
	bridge := report('a', 'm', 3, 0.01, map[string]float64{"BenchmarkA": 0.10}) // BenchmarkB not measured
	bridge.Head.Depth = 4
	bid, err := s.AddBridge(ctx, bridge, testMachine)
	require.NoError(t, err)
	add(report('m', 'd', 4, 0.01, map[string]float64{"BenchmarkA": 0, "BenchmarkB": 0.2}), 5)
	add(report('m', 'e', 5, 0.01, map[string]float64{"BenchmarkA": 0.05}), 6)
	add(report('m', 'f', 6, 0.01, map[string]float64{"BenchmarkA": 0.05}), 7)

	type pt struct {
		head   string
		change float64
		base   string
	}
	points := func(sr Series) []pt {
		var out []pt
		for _, p := range sr.Points {
			b := ""
			if p.Base != "" {
				b = p.Base[:1]
			}
			out = append(out, pt{p.Head.Commit[:1], p.Change, b})
		}
		return out
	}
	for _, tc := range []struct {
		baseline string
		want     []pt
		skipped  []string // heads of BenchmarkB's left-out points
	}{
		{"aaaa", []pt{{"b", 0, ""}, {"c", 0.10, ""}, {"m", 0.10, ""}, {"d", 0.10, "m"}, {"e", 0.155, "m"}, {"f", 0.155, "m"}}, []string{"d"}},
		{"mmmm", []pt{{"b", 1/1.1 - 1, "a"}, {"c", 0, "a"}, {"d", 0, ""}, {"e", 0.05, ""}, {"f", 0.05, ""}}, []string{"b", "c"}},
	} {
		t.Run(tc.baseline, func(t *testing.T) {
			set, err := s.Series(ctx, Query{Baseline: tc.baseline})
			require.NoError(t, err)
			require.Len(t, set.Bridges, 1)
			assert.Equal(t, bid, set.Bridges[0].Comparison)
			assert.Equal(t, commit('a'), set.Bridges[0].From.Commit)
			assert.Equal(t, commit('m'), set.Bridges[0].To.Commit)
			var a, b Series
			for _, sr := range set.Series {
				switch sr.Name {
				case "BenchmarkA":
					a = sr
				case "BenchmarkB":
					b = sr
				}
			}
			got := points(a)
			require.Len(t, got, len(tc.want))
			for i, w := range tc.want {
				assert.Equal(t, w.head, got[i].head, "point %d", i)
				assert.InDelta(t, w.change, got[i].change, 1e-12, "point %d (%s)", i, w.head)
				assert.Equal(t, w.base, got[i].base, "point %d (%s)", i, w.head)
			}
			for _, p := range a.Points {
				assert.LessOrEqual(t, p.CI.Low, p.Change)
				assert.GreaterOrEqual(t, p.CI.High, p.Change)
			}
			var skipped []string
			for _, sk := range b.Skipped {
				skipped = append(skipped, sk.Head.Commit[:1])
				assert.Contains(t, sk.Reason, "the bridge comparison")
			}
			assert.Equal(t, tc.skipped, skipped, "BenchmarkB has no bridge result")
		})
	}

	_, err = s.AddBridge(ctx, report('a', 'a', 0, 0.01, nil), testMachine)
	assert.Error(t, err, "a bridge joins two commits")

	benches, err := s.Benchmarks(ctx, commit('a'))
	require.NoError(t, err)
	assert.Equal(t, []compare.Benchmark{{Package: "example.com/m", Name: "BenchmarkA"}, {Package: "example.com/m", Name: "BenchmarkB"}}, benches)
}
