package detect

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// A Point is what the detectors read of one commit of a benchmark's
// series: its change against the baseline and that change's interval. A
// series' own point type embeds it (history.Point, and through it
// trend.Point), so every series is read by [Detect] as it is, with no
// copy into a type of the detectors'.
type Point struct {
	// Change is the change against the baseline revision (0.05: 5% above
	// the baseline's median).
	Change float64 `json:"change"`
	// CI is the confidence interval of Change; its width is the point's
	// instability.
	CI benchstats.Interval `json:"ci"`
}

// Measured returns p itself: a type that embeds a Point is a
// [Measurement] through it.
func (p Point) Measured() Point { return p }

// A Measurement is a point of a series as [Detect] and [Thresholds] take
// it: a [Point], or a type that embeds one.
type Measurement interface {
	// Measured returns the detectors' view of the point.
	Measured() Point
}

// measured returns the Points that points embed.
func measured[P Measurement](points []P) []Point {
	out := make([]Point, len(points))
	for i, p := range points {
		out[i] = p.Measured()
	}
	return out
}

// Bounds are fixed-value limits on a point's value (the dissertation's
// FV thresholds, relative to the baseline here): a value is fine when
// Lower < value < Upper.
type Bounds struct {
	// Lower is the lower bound, such as −0.2.
	Lower float64 `json:"lower"`
	// Upper is the upper bound, such as 0.2.
	Upper float64 `json:"upper"`
}

// Options are the detectors' parameters; [DefaultOptions] holds the
// study's values. Every field must be set: the zero value is not valid.
type Options struct {
	// InitialThreshold is the threshold before the series has Widths
	// points of its own (see the package documentation); calibrate it
	// per benchmark from A/A runs.
	InitialThreshold float64 `json:"initial_threshold"`
	// Factor scales the mean of the last CI widths into the threshold
	// (the study: 0.75, between the false alarms of 0.5 and the missed
	// changes of 1).
	Factor float64 `json:"factor"`
	// Widths is how many earlier CI widths the threshold averages (3).
	Widths int `json:"widths"`
	// Floor is the threshold's lower bound (1%).
	Floor float64 `json:"floor"`
	// Window is the trend detector's number of earlier commits (10).
	Window int `json:"window"`
	// Fixed, when not nil, adds the fixed-value detector.
	Fixed *Bounds `json:"fixed,omitempty"`
	// Detectors are the detectors to run, among Jump, Trend and
	// EDivisive, in any order; nil or empty runs Jump and Trend, the
	// study's pair. Fixed runs when Fixed is set, whatever this says.
	Detectors []Kind `json:"detectors,omitempty"`
	// EDivisive holds the E-divisive detector's parameters when Detectors
	// names it; nil means [DefaultEDivisiveOptions].
	EDivisive *EDivisiveOptions `json:"edivisive,omitempty"`
}

// The fields of [Options] that input errors name (mbopt.Field paths).
const (
	FieldDetectors             mbopt.Field = "Detectors"
	FieldEDivisiveAlpha        mbopt.Field = "EDivisive.Alpha"
	FieldEDivisiveMinSize      mbopt.Field = "EDivisive.MinSize"
	FieldEDivisivePermutations mbopt.Field = "EDivisive.Permutations"
	FieldEDivisiveSignificance mbopt.Field = "EDivisive.Significance"
	FieldFactor                mbopt.Field = "Factor"
	FieldFixed                 mbopt.Field = "Fixed"
	FieldFloor                 mbopt.Field = "Floor"
	FieldInitialThreshold      mbopt.Field = "InitialThreshold"
	FieldWidths                mbopt.Field = "Widths"
	FieldWindow                mbopt.Field = "Window"
)

// DefaultOptions are the study's parameters. InitialThreshold is the
// starting threshold the study chose for its more stable suite (6%, which
// covered about 80% of that suite's A/A instabilities); calibrated
// thresholds replace it per benchmark.
var DefaultOptions = Options{
	InitialThreshold: 0.06,
	Factor:           0.75,
	Widths:           3,
	Floor:            0.01,
	Window:           10,
}

// invalid returns an input error about field of Options, whose message
// follows the field's name.
func invalid(field mbopt.Field, format string, args ...any) error {
	return &mbopt.Error{Struct: "detect.Options", Format: "%s " + format, Args: append([]any{field}, args...)}
}

// Check reports the first invalid field of o, naming it, as an
// [*mbopt.Error].
func (o Options) Check() error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	switch {
	case bad(o.InitialThreshold):
		return invalid(FieldInitialThreshold, "is %v; it must be a relative change ≥ 0, such as 0.06", o.InitialThreshold)
	case bad(o.Factor) || o.Factor == 0:
		return invalid(FieldFactor, "is %v; it must be positive, such as 0.75", o.Factor)
	case o.Widths < 1:
		return invalid(FieldWidths, "is %d; it must be at least 1, such as 3", o.Widths)
	case bad(o.Floor):
		return invalid(FieldFloor, "is %v; it must be a relative change ≥ 0, such as 0.01", o.Floor)
	case o.Window < 2:
		return invalid(FieldWindow, "is %d; it must be at least 2, such as 10", o.Window)
	}
	if b := o.Fixed; b != nil {
		if math.IsNaN(b.Lower) || math.IsNaN(b.Upper) || math.IsInf(b.Lower, 0) || math.IsInf(b.Upper, 0) || !(b.Lower < b.Upper) {
			return invalid(FieldFixed, "is [%v, %v]; Lower and Upper must be finite and Lower below Upper", b.Lower, b.Upper)
		}
	}
	for _, k := range o.Detectors {
		switch k {
		case Jump, Trend, EDivisive:
		default:
			return invalid(FieldDetectors, "holds %q; valid detectors are {jump|trend|edivisive}", k)
		}
	}
	if o.EDivisive != nil {
		if err := o.EDivisive.Check(); err != nil {
			return err
		}
	}
	return nil
}

// ParseDetectors parses a comma-separated list of detectors, such as
// "jump,trend" or "edivisive", for [Options].Detectors. Names may repeat
// (kept once, in the order first given); an unknown or empty name is an
// [*mbopt.Error] of the field Detectors listing the valid ones.
func ParseDetectors(list string) ([]Kind, error) {
	var out []Kind
	for _, name := range strings.Split(list, ",") {
		k := Kind(strings.TrimSpace(name))
		switch k {
		case Jump, Trend, EDivisive:
		default:
			return nil, invalid(FieldDetectors, "holds %q; valid detectors are {jump|trend|edivisive}, such as jump,trend", strings.TrimSpace(name))
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out, nil
}

// ParseBounds parses fixed-value bounds written LOWER,UPPER, such as
// "-0.2,0.2", for [Options].Fixed; anything else, or LOWER ≥ UPPER, is an
// [*mbopt.Error] of the field Fixed that shows the form.
func ParseBounds(s string) (*Bounds, error) {
	lo, hi, ok := strings.Cut(s, ",")
	l, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
	h, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
	if !ok || err1 != nil || err2 != nil || !(l < h) {
		return nil, mbopt.Errorf("%s %s: want LOWER,UPPER relative changes with LOWER < UPPER, such as -0.2,0.2", FieldFixed, s)
	}
	return &Bounds{Lower: l, Upper: h}, nil
}

// Runs reports whether [Detect] runs detector k with o (Fixed: when
// o.Fixed is set).
func (o Options) Runs(k Kind) bool {
	if k == Fixed {
		return o.Fixed != nil
	}
	if len(o.Detectors) == 0 {
		return k == Jump || k == Trend
	}
	return slices.Contains(o.Detectors, k)
}

// A Kind names a detector.
type Kind string

// The detectors.
const (
	Fixed     Kind = "fixed"
	Jump      Kind = "jump"
	Trend     Kind = "trend"
	EDivisive Kind = "edivisive"
)

// A Direction says which way a detection went.
type Direction string

// The directions: up is a larger value (slower, for a time), down a
// smaller one.
const (
	Up   Direction = "up"
	Down Direction = "down"
)

// A Detection is one detector firing at one point.
type Detection struct {
	// Index is the point's index in the series.
	Index int `json:"index"`
	// Kind is the detector.
	Kind Kind `json:"kind"`
	// Direction is the sign of Change.
	Direction Direction `json:"direction"`
	// Change is what the detector measured: the jump from the previous
	// point, the trend against the window's mean, for EDivisive the
	// change between the means of the segments before and after the
	// point, or, for Fixed, the point's value.
	Change float64 `json:"change"`
	// Threshold is the point's threshold (for Fixed, the bound crossed).
	Threshold float64 `json:"threshold"`
	// Definite is set for a definite detection (see the package
	// documentation), else it is potential.
	Definite bool `json:"definite"`
	// Window is the number of earlier points a trend was measured
	// against; 0 for the other kinds.
	Window int `json:"window,omitempty"`
}

// Result is the outcome of [Detect].
type Result struct {
	// Thresholds holds each point's dynamic threshold, one per point.
	Thresholds []float64 `json:"thresholds"`
	// Detections are ordered by index, then fixed, jump, trend,
	// edivisive.
	Detections []Detection `json:"detections"`
}

// Detect runs the detectors over points, which are in commit order and
// relative to a baseline; the first point's jump is its change from the
// baseline (0, with the interval [0, 0]). It
// fails only on invalid options or a point whose value or interval is not
// finite or whose value is −1 or less (a metric of 0 or below). Its cost
// is O(len(points) × (Window + Widths)), plus that of [ChangePoints] when
// opt.Detectors names it.
func Detect[P Measurement](series []P, opt Options) (Result, error) {
	if err := opt.Check(); err != nil {
		return Result{}, err
	}
	points := measured(series)
	for i, p := range points {
		for _, v := range []float64{p.Change, p.CI.Low, p.CI.High} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Result{}, fmt.Errorf("detect: point %d: %v is not finite", i, v)
			}
		}
		if p.Change <= -1 {
			return Result{}, fmt.Errorf("detect: point %d: change %v is −100%% or less", i, p.Change)
		}
	}
	res := Result{Thresholds: thresholds(points, opt), Detections: []Detection{}}
	start := 0 // the trend window's first point: after the last definite jump
	for i, p := range points {
		t := res.Thresholds[i]
		if b := opt.Fixed; b != nil {
			switch {
			case p.Change <= b.Lower:
				res.Detections = append(res.Detections, Detection{Index: i, Kind: Fixed, Direction: Down, Change: p.Change, Threshold: b.Lower, Definite: p.CI.High <= b.Lower})
			case p.Change >= b.Upper:
				res.Detections = append(res.Detections, Detection{Index: i, Kind: Fixed, Direction: Up, Change: p.Change, Threshold: b.Upper, Definite: p.CI.Low >= b.Upper})
			}
		}
		definiteJump := false
		if opt.Runs(Jump) || opt.Runs(Trend) { // the window restarts after a definite jump either way
			// The first point is compared with the baseline itself: a
			// change of 0 known exactly, so the first commit after the
			// baseline can be a jump.
			prev := Point{}
			if i > 0 {
				prev = points[i-1]
			}
			c := (1+p.Change)/(1+prev.Change) - 1
			if math.Abs(c) > t {
				definiteJump = !p.CI.Overlaps(prev.CI)
				if opt.Runs(Jump) {
					res.Detections = append(res.Detections, Detection{Index: i, Kind: Jump, Direction: direction(c), Change: c, Threshold: t, Definite: definiteJump})
				}
			}
		}
		if from := max(start, i-opt.Window); opt.Runs(Trend) && i-from >= 2 {
			window := points[from:i]
			sum := 0.0
			overlaps := false
			for _, q := range window {
				sum += 1 + q.Change
				overlaps = overlaps || p.CI.Overlaps(q.CI)
			}
			c := (1+p.Change)*float64(len(window))/sum - 1
			if math.Abs(c) > t {
				res.Detections = append(res.Detections, Detection{Index: i, Kind: Trend, Direction: direction(c), Change: c, Threshold: t, Definite: !overlaps, Window: len(window)})
			}
		}
		if definiteJump {
			start = i
		}
	}
	if opt.Runs(EDivisive) {
		eo := DefaultEDivisiveOptions
		if opt.EDivisive != nil {
			eo = *opt.EDivisive
		}
		values := make([]float64, len(points))
		for i, p := range points {
			values[i] = p.Change
		}
		cps, err := ChangePoints(values, eo)
		if err != nil {
			return Result{}, err
		}
		var eds []Detection
		for _, cp := range cps {
			c := (1+cp.After)/(1+cp.Before) - 1
			t := res.Thresholds[cp.Index]
			eds = append(eds, Detection{Index: cp.Index, Kind: EDivisive, Direction: direction(c), Change: c, Threshold: t, Definite: math.Abs(c) > t})
		}
		res.Detections = mergeByIndex(res.Detections, eds)
	}
	return res, nil
}

// mergeByIndex merges b into a, both ordered by index, keeping at one
// index a's detections before b's.
func mergeByIndex(a, b []Detection) []Detection {
	out := make([]Detection, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		if len(b) == 0 || (len(a) > 0 && a[0].Index <= b[0].Index) {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}

// Thresholds returns the dynamic threshold of each point (see the package
// documentation), without checking opt.
func Thresholds[P Measurement](points []P, opt Options) []float64 {
	return thresholds(measured(points), opt)
}

// thresholds is [Thresholds] of the detectors' own points.
func thresholds(points []Point, opt Options) []float64 {
	ts := make([]float64, len(points))
	initialWidth := opt.InitialThreshold / opt.Factor
	for i := range points {
		sum := 0.0
		for k := 1; k <= opt.Widths; k++ {
			if i-k >= 0 {
				sum += points[i-k].CI.Width()
			} else {
				sum += initialWidth
			}
		}
		ts[i] = max(opt.Floor, opt.Factor*sum/float64(opt.Widths))
	}
	return ts
}

func direction(c float64) Direction {
	if c < 0 {
		return Down
	}
	return Up
}
