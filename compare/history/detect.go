package history

import (
	"fmt"

	"github.com/mbopt/mbopt/compare/detect"
)

// Where a series' initial threshold came from ([Detected].ThresholdSource).
const (
	// ThresholdCalibrated: the benchmark's own A/A results.
	ThresholdCalibrated = "calibrated"
	// ThresholdSuite: the suite threshold of the A/A results of others.
	ThresholdSuite = "suite"
	// ThresholdGiven: set by the caller (mbopt history --initial-threshold).
	ThresholdGiven = "given"
	// ThresholdDefault: the detectors' options, no A/A result stored.
	ThresholdDefault = "default"
)

// InitialThresholdFunc returns a series' initial threshold and its source
// (one of the Threshold… constants), or an error.
type InitialThresholdFunc func(s Series) (float64, string, error)

// A Detected is one series of a [Set] with what the detectors (package
// detect) found in it.
type Detected struct {
	// Series is the series.
	Series Series
	// InitialThreshold is the detectors' initial threshold for it.
	InitialThreshold float64
	// ThresholdSource is where InitialThreshold came from: one of the
	// Threshold… constants.
	ThresholdSource string
	// Thresholds holds each point's dynamic threshold, one per point.
	Thresholds []float64
	// Detections are ordered as package detect orders them (by index,
	// then fixed, jump, trend, edivisive); never nil.
	Detections []detect.Detection
}

// Detect runs the detectors over every series of set with opt, taking
// each series' initial threshold from initial (nil: opt's, with source
// [ThresholdDefault]). It returns one [Detected] per series, in set's
// order. It fails on the first error of initial, and on invalid options
// or points the detectors refuse (see [detect.Detect]), naming the series.
func (set *Set) Detect(opt detect.Options, initial InitialThresholdFunc) ([]Detected, error) {
	out := make([]Detected, 0, len(set.Series))
	for _, s := range set.Series {
		o := opt
		src := ThresholdDefault
		if initial != nil {
			t, from, err := initial(s)
			if err != nil {
				return nil, err
			}
			o.InitialThreshold, src = t, from
		}
		res, err := detect.Detect(s.Points, o)
		if err != nil {
			return nil, fmt.Errorf("history: %s (%s): %w", s.ID, s.Unit, err)
		}
		dets := res.Detections
		if dets == nil {
			dets = []detect.Detection{}
		}
		out = append(out, Detected{Series: s, InitialThreshold: o.InitialThreshold, ThresholdSource: src,
			Thresholds: res.Thresholds, Detections: dets})
	}
	return out, nil
}
