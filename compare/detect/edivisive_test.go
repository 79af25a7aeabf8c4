package detect

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noisy returns values with Gaussian noise of standard deviation sd added,
// from a generator seeded with seed.
func noisy(seed uint64, sd float64, values ...float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]float64, len(values))
	for i, v := range values {
		out[i] = v + sd*rng.NormFloat64()
	}
	return out
}

func concat(parts ...[]float64) []float64 {
	var out []float64
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// withE returns DefaultEDivisiveOptions as f changes them.
func withE(f func(*EDivisiveOptions)) EDivisiveOptions {
	return changed(DefaultEDivisiveOptions, f)
}

func TestChangePoints(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		opt    EDivisiveOptions
		want   []int
	}{
		{"too short to split", noisy(1, 0.001, concat(repeat(0, 4), repeat(0.1, 5))...), DefaultEDivisiveOptions, nil},
		{"constant", repeat(0.02, 30), DefaultEDivisiveOptions, nil},
		{"noise only", noisy(2, 0.01, repeat(0, 40)...), DefaultEDivisiveOptions, nil},
		{"one step", noisy(3, 0.005, concat(repeat(0, 20), repeat(0.05, 20))...), DefaultEDivisiveOptions, []int{20}},
		{"a regression and its fix", noisy(4, 0.005, concat(repeat(0, 15), repeat(0.08, 12), repeat(0, 15))...), DefaultEDivisiveOptions, []int{15, 27}},
		// MinSize 5 keeps the change point 5 points in: the nearest it may lie.
		{"a step too close to the start for MinSize 5", noisy(5, 0.002, concat(repeat(0, 3), repeat(0.05, 30))...), DefaultEDivisiveOptions, []int{5}},
		{"the same step with MinSize 3", noisy(5, 0.002, concat(repeat(0, 3), repeat(0.05, 30))...), withE(func(o *EDivisiveOptions) { o.MinSize = 3 }), []int{3}},
		{"a change of spread, not of mean", concat(noisy(6, 0.001, repeat(0, 25)...), noisy(7, 0.05, repeat(0, 25)...)), DefaultEDivisiveOptions, []int{25}},
		{"alpha 0.5 finds the step too", noisy(3, 0.005, concat(repeat(0, 20), repeat(0.05, 20))...), withE(func(o *EDivisiveOptions) { o.Alpha = 0.5 }), []int{20}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cps, err := ChangePoints(tt.values, tt.opt)
			require.NoError(t, err)
			var got []int
			for _, c := range cps {
				got = append(got, c.Index)
				assert.LessOrEqual(t, c.PValue, tt.opt.Significance, "p-value of %d", c.Index)
				assert.Positive(t, c.Q)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestChangePointsMeans(t *testing.T) {
	cps, err := ChangePoints(concat(repeat(0, 10), repeat(0.1, 10)), DefaultEDivisiveOptions)
	require.NoError(t, err)
	require.Len(t, cps, 1)
	assert.Equal(t, 10, cps[0].Index)
	assert.Zero(t, cps[0].Before)
	assert.InDelta(t, 0.1, cps[0].After, 1e-12)
	// 20 points with the two halves kept apart: of the C(20,10) splits
	// only the original reaches Q̂, so every permutation falls short.
	assert.InDelta(t, 1.0/200, cps[0].PValue, 1e-12)
	// Q̂ of two constant halves at distance d is m·k/(m+k) · 2d.
	assert.InDelta(t, 10*10/20.0*2*0.1, cps[0].Q, 1e-12)
}

func TestChangePointsDeterministic(t *testing.T) {
	values := noisy(8, 0.02, concat(repeat(0, 30), repeat(0.03, 30), repeat(-0.01, 30))...)
	first, err := ChangePoints(values, DefaultEDivisiveOptions)
	require.NoError(t, err)
	for range 3 {
		again, err := ChangePoints(values, DefaultEDivisiveOptions)
		require.NoError(t, err)
		assert.Equal(t, first, again)
	}
}

func TestChangePointsErrors(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		opt    EDivisiveOptions
		want   string
	}{
		{"zero options", repeat(0, 10), EDivisiveOptions{}, "Significance is 0"},
		{"significance 1", repeat(0, 10), withE(func(o *EDivisiveOptions) { o.Significance = 1 }), "Significance is 1"},
		{"no permutations", repeat(0, 10), withE(func(o *EDivisiveOptions) { o.Permutations = 0 }), "Permutations is 0"},
		{"min size 1", repeat(0, 10), withE(func(o *EDivisiveOptions) { o.MinSize = 1 }), "MinSize is 1"},
		{"alpha 2", repeat(0, 10), withE(func(o *EDivisiveOptions) { o.Alpha = 2 }), "Alpha is 2"},
		{"not finite", []float64{0, 1, inf()}, DefaultEDivisiveOptions, "point 2: +Inf is not finite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ChangePoints(tt.values, tt.opt)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func inf() float64 { var z float64; return 1 / z }

func TestDetectDetectors(t *testing.T) {
	step := series(0.004, noisy(9, 0.002, concat(repeat(0, 12), repeat(0.06, 12))...)...)
	tests := []struct {
		name      string
		detectors []Kind
		want      []short
	}{
		{"default: jump and trend", nil, []short{{12, Jump, Up, true}, {12, Trend, Up, true}}},
		{"jump only", []Kind{Jump}, []short{{12, Jump, Up, true}}},
		{"trend only", []Kind{Trend}, []short{{12, Trend, Up, true}}},
		{"edivisive only", []Kind{EDivisive}, []short{{12, EDivisive, Up, true}}},
		{"all three", []Kind{EDivisive, Trend, Jump}, []short{{12, Jump, Up, true}, {12, Trend, Up, true}, {12, EDivisive, Up, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := with(func(o *Options) { o.InitialThreshold = 0.01; o.Detectors = tt.detectors })
			res, err := Detect(step, opt)
			require.NoError(t, err)
			assert.Equal(t, tt.want, shorten(res.Detections))
			assert.Len(t, res.Thresholds, len(step))
		})
	}
}

func TestDetectEDivisiveDetection(t *testing.T) {
	// A 3% step in a series whose intervals are 10% wide: significant over
	// the whole series, but smaller than the dynamic threshold (7.5%), so
	// potential; jump and trend see nothing.
	pts := series(0.05, concat(repeat(0, 10), repeat(0.03, 10))...)
	res, err := Detect(pts, with(func(o *Options) { o.Detectors = []Kind{Jump, Trend, EDivisive} }))
	require.NoError(t, err)
	require.Len(t, res.Detections, 1)
	d := res.Detections[0]
	assert.Equal(t, Detection{Index: 10, Kind: EDivisive, Direction: Up, Change: d.Change, Threshold: d.Threshold, Definite: false}, d)
	assert.InDelta(t, 0.075, d.Threshold, 1e-12)
	assert.InDelta(t, 0.03, d.Change, 1e-12)
}

func TestOptionsCheckDetectors(t *testing.T) {
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{"unknown detector", with(func(o *Options) { o.Detectors = []Kind{"cusum"} }), `Detectors holds "cusum"; valid detectors are {jump|trend|edivisive}`},
		{"fixed is not chosen here", with(func(o *Options) { o.Detectors = []Kind{Fixed} }), `Detectors holds "fixed"`},
		{"bad edivisive options", with(func(o *Options) {
			o.EDivisive = &EDivisiveOptions{Significance: 0.05, Permutations: 9, MinSize: 1, Alpha: 1}
		}), "MinSize is 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.opt.Check()
			require.Error(t, err)
			assert.True(t, strings.Contains(err.Error(), tt.want), "%v, want %q", err, tt.want)
		})
	}
}

// BenchmarkChangePoints measures E-divisive on a series of 200 commits
// with two steps and 1% noise, the size of a long history.
func BenchmarkChangePoints(b *testing.B) {
	values := noisy(10, 0.01, concat(repeat(0, 70), repeat(0.05, 70), repeat(0.02, 60))...)
	for b.Loop() {
		if _, err := ChangePoints(values, DefaultEDivisiveOptions); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSplitFastPath checks the O(n log n) split for α = 1 against the
// quadratic sums it replaces.
func TestSplitFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{10, 11, 37, 200} {
		for _, ties := range []bool{false, true} {
			e := &edivisive{opt: DefaultEDivisiveOptions, bounds: []int{0, n}, items: make([]item, n)}
			for i := range e.items {
				v := rng.NormFloat64()
				if ties {
					v = float64(rng.IntN(4))
				}
				e.items[i].v = v
			}
			e.rank()
			tau1, q1 := e.split1(e.items)
			tauN, qN := e.splitPow(e.items, 1)
			assert.Equal(t, tauN, tau1, "n %d, ties %v", n, ties)
			assert.InDelta(t, qN, q1, 1e-9*max(1, qN), "n %d, ties %v", n, ties)
		}
	}
}

func TestParseDetectors(t *testing.T) {
	tests := []struct {
		in   string
		want []Kind
		err  string
	}{
		{"jump,trend", []Kind{Jump, Trend}, ""},
		{"edivisive", []Kind{EDivisive}, ""},
		{" trend , jump,trend", []Kind{Trend, Jump}, ""},
		{"jump,trend,edivisive", []Kind{Jump, Trend, EDivisive}, ""},
		{"fixed", nil, `Detectors holds "fixed"; valid detectors are {jump|trend|edivisive}`},
		{"", nil, `Detectors holds ""; valid detectors are`},
		{"jump,", nil, `Detectors holds ""`},
		{"cusum", nil, `Detectors holds "cusum"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDetectors(tt.in)
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
