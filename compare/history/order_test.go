package history

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare/detect"
)

// TestSeriesAncestryOrder: five commits made in the same second (a
// script, a rebase) whose hashes sort in another order than their
// ancestry. The benchmark slows down once, at the third commit. Ordered
// by commit time then hash, as before, the series zigzagged and showed
// false definite jumps; ordered by first-parent depth it shows the one
// jump (issue 25 item 4).
func TestSeriesAncestryOrder(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	// Ancestry order: e (depth 2), b, d, c, f; the step is at d.
	heads := []struct {
		c      byte
		depth  int
		change float64
	}{{'e', 2, 0}, {'b', 3, 0.001}, {'d', 4, 0.20}, {'c', 5, 0.201}, {'f', 6, 0.199}}
	for _, h := range heads {
		r := report('a', h.c, 0, 0.005, map[string]float64{"BenchmarkA": h.change})
		r.Head.Depth = h.depth
		r.Base.Depth = 1
		_, err := s.Add(ctx, r, testMachine)
		require.NoError(t, err)
	}
	set, err := s.Series(ctx, Query{})
	require.NoError(t, err)
	require.Len(t, set.Series, 1)
	sr := set.Series[0]
	assert.Equal(t, "ebdcf", headLetters(sr.Points), "first-parent order")
	opt := detect.DefaultOptions
	opt.InitialThreshold = 0.02
	res, err := detect.Detect(sr.Points, opt)
	require.NoError(t, err)
	var jumps []int
	for _, d := range res.Detections {
		if d.Kind == detect.Jump {
			jumps = append(jumps, d.Index)
		}
	}
	assert.Equal(t, []int{2}, jumps, "one jump, at d")
}

func TestSortPoints(t *testing.T) {
	pt := func(c byte, hour, depth int) Point {
		r := report('a', c, hour, 0, nil)
		r.Head.Depth = depth
		return Point{Head: r.Head}
	}
	for _, tc := range []struct {
		name   string
		points []Point
		want   string
	}{
		{"depth first", []Point{pt('a', 0, 3), pt('b', 5, 1), pt('c', 1, 2)}, "bca"},
		{"equal depths: time, then hash", []Point{pt('d', 1, 2), pt('c', 1, 2), pt('b', 0, 2)}, "bcd"},
		{"an unknown depth: time first", []Point{pt('a', 2, 1), pt('b', 1, 0), pt('c', 1, 5), pt('d', 0, 9)}, "dbca"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			SortPoints(tc.points)
			assert.Equal(t, tc.want, headLetters(tc.points))
		})
	}
}
