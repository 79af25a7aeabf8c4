package history

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare/detect"
)

// TestSeriesSkipsUnusable: one stored result that is no measurement (an
// infinite or absurd change, an interval lost or inverted, a verdict this
// mbopt does not know) is left out of its series and listed, and the
// detectors run over the rest (issue 25: one +Inf made mbopt history exit
// 1, "detect: point 4", and lost the text output).
func TestSeriesSkipsUnusable(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	heads := []byte("bcdefghij")
	for i, c := range heads {
		r := report('a', c, i+1, 0.005, map[string]float64{"BenchmarkA": 0.01 * float64(i%2)})
		r.Head.Depth = i + 2
		_, err := s.Add(ctx, r, testMachine)
		require.NoError(t, err)
	}
	bad := []struct {
		head byte
		set  string
		want string
	}{
		{'c', `change = 1e308, ci_low = 1e308, ci_high = 1e308`, "change 1e+308 is beyond any measurement (±1e+09)"},
		{'d', `change = 9e999`, "change +Inf is not finite"},
		{'e', `ci_low = NULL`, "no confidence interval stored"},
		{'f', `ci_low = 0.5, ci_high = 0.1`, "interval [0.5, 0.1] is inverted"},
		{'g', `change = -1`, "change -1 is −100% or less"},
		{'h', `verdict = 'bogus'`, `unknown verdict "bogus"`},
	}
	for _, b := range bad {
		_, err := s.db.ExecContext(ctx, `UPDATE results SET `+b.set+` WHERE comparison_id = (SELECT id FROM comparisons WHERE head_commit = ?)`, commit(b.head))
		require.NoError(t, err, b.set)
	}
	set, err := s.Series(ctx, Query{})
	require.NoError(t, err)
	require.Len(t, set.Series, 1)
	sr := set.Series[0]
	assert.Equal(t, "bij", headLetters(sr.Points))
	require.Len(t, sr.Skipped, len(bad))
	for i, b := range bad {
		assert.Equal(t, commit(b.head), sr.Skipped[i].Head.Commit)
		assert.Equal(t, b.want, sr.Skipped[i].Reason, "head %c", b.head)
	}
	det, err := set.Detect(detect.DefaultOptions, nil)
	require.NoError(t, err)
	require.Len(t, det, 1)
	assert.Len(t, det[0].Thresholds, 3)
	assert.False(t, math.IsInf(det[0].Thresholds[2], 0))
}
