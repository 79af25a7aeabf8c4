package history

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCalibrate(t *testing.T) {
	insts := []Instability{
		// Five A/A widths: the empirical 0.8 quantile is the 4th smallest,
		// 4%, and 0.75 × 4% = 3%.
		{ID: "b.BenchmarkB", Unit: "sec/op", Widths: []float64{0.05, 0.01, 0.04, 0.02, 0.03}},
		// One width of 0.8%: 0.75 × 0.8% is below the 1% floor.
		{ID: "a.BenchmarkA", Unit: "sec/op", Widths: []float64{0.008}},
		{ID: "a.BenchmarkA", Unit: "B/op", Widths: []float64{0.2}},
		{ID: "c.BenchmarkC", Unit: "sec/op"}, // no width: ignored
	}
	c, err := Calibrate(insts, DefaultCalibrateOptions)
	require.NoError(t, err)
	require.Len(t, c.Thresholds, 3)
	assert.InDelta(t, 0.75*0.2, c.Thresholds[0].Threshold, 1e-12)
	c.Thresholds[0].Threshold = 0.15
	assert.Equal(t, []Threshold{
		{ID: "a.BenchmarkA", Unit: "B/op", Threshold: 0.15, Instability: 0.2, Runs: 1},
		{ID: "a.BenchmarkA", Unit: "sec/op", Threshold: 0.01, Instability: 0.008, Runs: 1},
		{ID: "b.BenchmarkB", Unit: "sec/op", Threshold: 0.75 * 0.04, Instability: 0.04, Runs: 5},
	}, c.Thresholds)
	// Suite: medians 0.2, 0.008, 0.03; the 0.8 quantile of three is the
	// largest.
	assert.Equal(t, 0.2, c.Suite)
	for _, tt := range []struct {
		id, unit string
		want     float64
		own      bool
	}{
		{"b.BenchmarkB", "sec/op", 0.75 * 0.04, true},
		{"a.BenchmarkA", "sec/op", 0.01, true},
		{"a.BenchmarkA", "allocs/op", 0.2, false},
		{"z.BenchmarkZ", "sec/op", 0.2, false},
	} {
		got, own := c.For(tt.id, tt.unit)
		assert.InDelta(t, tt.want, got, 1e-12, "For(%s, %s)", tt.id, tt.unit)
		assert.Equal(t, tt.own, own, "For(%s, %s)", tt.id, tt.unit)
	}

	empty, err := Calibrate(nil, DefaultCalibrateOptions)
	require.NoError(t, err)
	got, own := empty.For("x", "sec/op")
	assert.Equal(t, 0.0, got)
	assert.False(t, own)

	for _, bad := range []CalibrateOptions{{Quantile: 0, Factor: 1}, {Quantile: 0.8}, {Quantile: 0.8, Factor: 1, Floor: -1}} {
		_, err := Calibrate(insts, bad)
		assert.Error(t, err, "%+v", bad)
	}
}

func TestInstabilitiesFromStore(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	for i, half := range []float64{0.01, 0.02, 0.015} {
		_, err := s.Add(ctx, report('a', 'a', 0, half, map[string]float64{"BenchmarkA": 0.001 * float64(i)}), testMachine)
		require.NoError(t, err)
	}
	// Not A/A, and A/A on another machine: left out.
	_, err := s.Add(ctx, report('a', 'b', 1, 0.2, map[string]float64{"BenchmarkA": 0}), testMachine)
	require.NoError(t, err)
	other := testMachine
	other.GoVersion = "go1.27"
	_, err = s.Add(ctx, report('a', 'a', 0, 0.3, map[string]float64{"BenchmarkA": 0}), other)
	require.NoError(t, err)

	insts, err := s.Instabilities(ctx, Filter{Machine: &testMachine})
	require.NoError(t, err)
	require.Len(t, insts, 1)
	assert.Equal(t, "example.com/m.BenchmarkA", insts[0].ID)
	require.Len(t, insts[0].Widths, 3)
	for i, w := range []float64{0.02, 0.04, 0.03} {
		assert.InDelta(t, w, insts[0].Widths[i], 1e-12)
	}
	all, err := s.Instabilities(ctx, Filter{})
	require.NoError(t, err)
	assert.Len(t, all[0].Widths, 4)
	for _, tt := range []struct {
		f    Filter
		want int
	}{
		{Filter{Benchmarks: []string{"example.com/m.BenchmarkA"}}, 1},
		{Filter{Benchmarks: []string{"BenchmarkA"}}, 1},
		{Filter{Benchmarks: []string{"BenchmarkB"}}, 0},
		{Filter{Unit: "sec/op"}, 1},
		{Filter{Unit: "B/op"}, 0},
	} {
		got, err := s.Instabilities(ctx, tt.f)
		require.NoError(t, err)
		assert.Len(t, got, tt.want, "%+v", tt.f)
	}
}

// TestInstabilitiesSkipUnusable: a stored A/A result whose interval is
// inverted or not finite makes no width; it is left out of the
// calibration and listed (issue 31: an inverted interval's negative width
// lowered the quantile, so the benchmark's threshold was silently the 1%
// floor; an infinite one made it infinite).
func TestInstabilitiesSkipUnusable(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		set, want string
	}{
		{`ci_low = 0.2, ci_high = -0.2`, "interval [0.2, -0.2] is inverted"},
		{`ci_high = 9e999`, "interval high +Inf is not finite"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			s := open(t, filepath.Join(t.TempDir(), "h.db"))
			var ids []int64
			for range 5 {
				id, err := s.Add(ctx, report('a', 'a', 0, 0.04, map[string]float64{"BenchmarkA": 0}), testMachine)
				require.NoError(t, err)
				ids = append(ids, id)
			}
			// Four of the five widths of 8% go bad: their 80th
			// percentile was -40% or +Inf.
			var want []string
			for _, id := range ids[1:] {
				_, err := s.db.ExecContext(ctx, `UPDATE results SET `+tc.set+` WHERE comparison_id = ?`, id)
				require.NoError(t, err)
				want = append(want, fmt.Sprintf("comparison %d: %s", id, tc.want))
			}
			insts, err := s.Instabilities(ctx, Filter{Machine: &testMachine})
			require.NoError(t, err)
			require.Len(t, insts, 1)
			assert.Equal(t, []float64{0.08}, roundAll(insts[0].Widths))
			assert.Equal(t, want, insts[0].Skipped)
			cal, err := Calibrate(insts, DefaultCalibrateOptions)
			require.NoError(t, err)
			got, own := cal.For("example.com/m.BenchmarkA", "sec/op")
			assert.True(t, own)
			assert.InDelta(t, 0.75*0.08, got, 1e-9, "the threshold of the usable width")
		})
	}
}

// roundAll returns xs rounded to 1e-9.
func roundAll(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Round(x*1e9) / 1e9
	}
	return out
}

// The suite threshold is a quantile of the benchmarks' median
// instabilities, Instability.Median, the figure the calibration table
// prints beside it: with an even count of A/A widths that is the mean of
// the middle two. It was the lower of them (gonum's empirical quantile),
// so a table of medians 20% and 30% printed a suite threshold of 10%.
func TestCalibrateSuiteUsesPrintedMedians(t *testing.T) {
	insts := []Instability{
		{ID: "a.BenchmarkA", Unit: "sec/op", Widths: []float64{0.1, 0.3}},
		{ID: "b.BenchmarkB", Unit: "sec/op", Widths: []float64{0.2, 0.4}},
	}
	assert.InDelta(t, 0.2, insts[0].Median(), 1e-12)
	assert.InDelta(t, 0.3, insts[1].Median(), 1e-12)
	assert.True(t, math.IsNaN(Instability{}.Median()))
	cal, err := Calibrate(insts, DefaultCalibrateOptions)
	require.NoError(t, err)
	// The empirical 0.8 quantile of the medians {0.2, 0.3} is 0.3.
	assert.InDelta(t, 0.3, cal.Suite, 1e-12)
}
