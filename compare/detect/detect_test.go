package detect

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare/benchstats"
)

// series builds points with the given values, each with an interval of
// ±half around its value.
func series(half float64, values ...float64) []Point {
	ps := make([]Point, len(values))
	for i, v := range values {
		ps[i] = Point{Change: v, CI: benchstats.Interval{Low: v - half, High: v + half}}
	}
	return ps
}

// repeat returns n copies of v.
func repeat(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// short is a detection without its measured change and threshold, which
// the tests check separately where they matter.
type short struct {
	Index    int
	Kind     Kind
	Dir      Direction
	Definite bool
}

func shorten(ds []Detection) []short {
	out := []short{}
	for _, d := range ds {
		out = append(out, short{d.Index, d.Kind, d.Direction, d.Definite})
	}
	return out
}

// changed returns base as f changes it.
func changed[T any](base T, f func(*T)) T {
	f(&base)
	return base
}

// with returns DefaultOptions as f changes them.
func with(f func(*Options)) Options { return changed(DefaultOptions, f) }

func TestDetect(t *testing.T) {
	// A slow trend: +0.4% per commit with narrow intervals, so no single
	// step is a jump but every value from the fifth on lies more than 1%
	// above the mean of the window before it.
	var slow []float64
	for i := range 16 {
		slow = append(slow, 0.004*float64(i))
	}
	var slowTrends []short
	for i := 5; i < 16; i++ {
		slowTrends = append(slowTrends, short{i, Trend, Up, true})
	}
	// Noise only: values drawn around 0 with a standard deviation of 0.5%,
	// intervals of ±2%, so the threshold settles at 3%.
	rng := rand.New(rand.NewPCG(1, 2))
	var noise []float64
	for range 40 {
		noise = append(noise, 0.005*rng.NormFloat64())
	}
	// The warm-up: an unstable benchmark (intervals 6% wide) alternating
	// ±2% around the baseline. From a 1% initial threshold the threshold
	// climbs to 4.5% over three points; the +2% from the baseline at point 0
	// and the jumps of about 4% at points 1 and 2 are the false alarms of
	// the study's first commits (potential: the wide intervals overlap).
	var alternating []float64
	for i := range 12 {
		alternating = append(alternating, 0.02*float64(1-2*(i%2)))
	}
	// A definite jump of +10% at point 10 restarts the trend window: the
	// points after it at the new level are no trend.
	jump := append(repeat(0, 10), repeat(0.10, 10)...)
	// A potential jump (wide intervals touch) does not restart it: the
	// trend against the old level goes on while the window's mean is
	// still more than the threshold below the new level.
	potential := append(repeat(0, 10), repeat(0.10, 6)...)

	tests := []struct {
		name   string
		points []Point
		opt    Options
		want   []short
	}{{
		name:   "single definite jump, then the window restarts",
		points: series(0.005, jump...),
		opt:    with(func(o *Options) { o.InitialThreshold = 0.02 }),
		want:   []short{{10, Jump, Up, true}, {10, Trend, Up, true}},
	}, {
		name:   "potential jump keeps the window",
		points: series(0.05, potential...),
		opt:    with(func(o *Options) { o.InitialThreshold = 0.02 }),
		// Threshold 7.5%; the window's mean rises by 1% per point at the
		// new level, so the trend fades after point 12.
		want: []short{
			{10, Jump, Up, false}, {10, Trend, Up, false},
			{11, Trend, Up, false}, {12, Trend, Up, false},
		},
	}, {
		name:   "slow trend, no jump",
		points: series(0.0015, slow...),
		opt:    with(func(o *Options) { o.InitialThreshold = 0.01 }),
		want:   slowTrends,
	}, {
		name:   "noise only",
		points: series(0.02, noise...),
		opt:    DefaultOptions,
		want:   []short{},
	}, {
		name:   "warm-up: false alarms while the threshold adapts",
		points: series(0.03, alternating...),
		opt:    with(func(o *Options) { o.InitialThreshold = 0.01 }),
		want:   []short{{0, Jump, Up, false}, {1, Jump, Down, false}, {2, Jump, Up, false}},
	}, {
		name:   "the first commit after the baseline is a jump from it",
		points: series(0.02, 0.12, 0.12, 0.12),
		opt:    DefaultOptions,
		want:   []short{{0, Jump, Up, true}},
	}, {
		name:   "warm-up: none from a calibrated initial threshold",
		points: series(0.03, alternating...),
		opt:    with(func(o *Options) { o.InitialThreshold = 0.045 }),
		want:   []short{},
	}, {
		name:   "fixed bounds: potential when the interval reaches inside, definite when not",
		points: series(0.02, 0, 0.11, 0.13, 0.13, -0.15, -0.25),
		opt:    with(func(o *Options) { o.InitialThreshold, o.Floor = 1, 1; o.Fixed = &Bounds{Lower: -0.2, Upper: 0.1} }),
		want:   []short{{1, Fixed, Up, false}, {2, Fixed, Up, true}, {3, Fixed, Up, true}, {5, Fixed, Down, true}},
	}, {
		name:   "empty series",
		points: nil,
		opt:    DefaultOptions,
		want:   []short{},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Detect(tt.points, tt.opt)
			require.NoError(t, err)
			assert.Equal(t, tt.want, shorten(res.Detections))
			assert.Len(t, res.Thresholds, len(tt.points))
		})
	}
}

func TestDetectChanges(t *testing.T) {
	// The jump and trend sizes follow the dissertation's formulas 4.2
	// and 4.3 on the metric m = 1 + value.
	pts := series(0.001, 0, 0, 0.10, 0.10, 0.21)
	res, err := Detect(pts, with(func(o *Options) { o.InitialThreshold = 0.01 }))
	require.NoError(t, err)
	require.Equal(t, []short{
		{2, Jump, Up, true}, {2, Trend, Up, true},
		{4, Jump, Up, true}, {4, Trend, Up, true},
	}, shorten(res.Detections))
	assert.InDelta(t, 0.10, res.Detections[0].Change, 1e-12)
	assert.InDelta(t, 0.10, res.Detections[1].Change, 1e-12)
	assert.Equal(t, 2, res.Detections[1].Window)
	assert.InDelta(t, 1.21/1.10-1, res.Detections[2].Change, 1e-12)
	// The definite jump at point 2 restarted the window, so point 4's
	// trend is measured against points 2 and 3 alone (1.21/1.10 − 1 =
	// 10%), not against all four earlier points (1.21·4/4.2 − 1 ≈ 15%).
	assert.InDelta(t, 1.21/1.10-1, res.Detections[3].Change, 1e-12)
	assert.Equal(t, 2, res.Detections[3].Window)
}

func TestThresholds(t *testing.T) {
	// Widths 2%, 8%, 2%, 2%, 2%: the threshold starts at the initial 3%,
	// and the 8% width raises the threshold of the points after it (the
	// study's Figure 4).
	pts := []Point{
		{CI: benchstats.Interval{Low: -0.01, High: 0.01}},
		{CI: benchstats.Interval{Low: -0.04, High: 0.04}},
		{CI: benchstats.Interval{Low: -0.01, High: 0.01}},
		{CI: benchstats.Interval{Low: -0.01, High: 0.01}},
		{CI: benchstats.Interval{Low: -0.01, High: 0.01}},
		{CI: benchstats.Interval{Low: -0.001, High: 0.001}},
	}
	opt := with(func(o *Options) { o.InitialThreshold = 0.03 })
	got := Thresholds(pts, opt)
	want := []float64{
		0.03,                            // all three widths are the initial one
		(0.75*0.02 + 0.03 + 0.03) / 3,   // one measured width
		(0.75*(0.02+0.08) + 0.03) / 3,   // two
		0.75 * (0.02 + 0.08 + 0.02) / 3, // three: 3%
		0.75 * (0.08 + 0.02 + 0.02) / 3,
		0.75 * (0.02 + 0.02 + 0.02) / 3, // 1.5%
	}
	require.Len(t, got, len(want))
	for i := range want {
		assert.InDelta(t, want[i], got[i], 1e-12, "threshold %d", i)
	}
	// The floor holds once the widths shrink.
	tiny := series(0.0001, repeat(0, 5)...)
	for i, th := range Thresholds(tiny, DefaultOptions) {
		if i >= 3 {
			assert.Equal(t, 0.01, th, "threshold %d", i)
		}
	}
}

func TestDetectErrors(t *testing.T) {
	ok := series(0.01, 0, 0.01)
	tests := []struct {
		name   string
		points []Point
		opt    Options
		want   string
	}{
		{"negative initial", ok, with(func(o *Options) { o.InitialThreshold = -1 }), "InitialThreshold"},
		{"zero factor", ok, with(func(o *Options) { o.Factor = 0 }), "Factor"},
		{"no widths", ok, with(func(o *Options) { o.Widths = 0 }), "Widths"},
		{"negative floor", ok, with(func(o *Options) { o.Floor = -0.01 }), "Floor"},
		{"window of one", ok, with(func(o *Options) { o.Window = 1 }), "Window"},
		{"inverted bounds", ok, with(func(o *Options) { o.Fixed = &Bounds{Lower: 0.1, Upper: -0.1} }), "Fixed"},
		{"infinite bounds", ok, with(func(o *Options) { o.Fixed = &Bounds{Lower: math.Inf(-1), Upper: math.Inf(1)} }), "must be finite"},
		{"zero options", ok, Options{}, "Factor"},
		{"value of -100%", series(0.01, 0, -1), DefaultOptions, "point 1"},
		{"NaN interval", []Point{{CI: benchstats.Interval{Low: 0, High: nan()}}}, DefaultOptions, "point 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Detect(tt.points, tt.opt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func nan() float64 {
	var zero float64
	return zero / zero
}
