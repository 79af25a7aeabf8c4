package detect_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/testkit/golden"
)

// This file is the synthetic comparison of the detectors behind
// docs/detectors.md: a series generator with injected changes at several
// noise levels, the precision and recall of jump, trend and E-divisive
// over its series, and a golden check of the table in the doc
// (go test ./detect -run TestDetectorTableGolden -update rewrites it).

// An event is an injected change: it starts at point Start and is complete
// at point End (End == Start for a step).
type event struct{ Start, End int }

// A shape is a kind of synthetic series: it returns the true value of
// every point (relative to the baseline) and the injected changes.
type shape struct {
	Name string
	Make func(rng *rand.Rand, n int) ([]float64, []event)
}

// stepSize is the size of every injected change: 5% of the baseline.
const stepSize = 0.05

// shapes are the synthetic series. Changes start between points 15 and
// n−20, so every detector has points on both sides to work with.
var shapes = []shape{
	{"no change", func(_ *rand.Rand, n int) ([]float64, []event) {
		return make([]float64, n), nil
	}},
	{"step", func(rng *rand.Rand, n int) ([]float64, []event) {
		k := 15 + rng.IntN(n-35)
		v := make([]float64, n)
		for i := k; i < n; i++ {
			v[i] = stepSize
		}
		return v, []event{{k, k}}
	}},
	{"regression, fixed 12 commits later", func(rng *rand.Rand, n int) ([]float64, []event) {
		k := 15 + rng.IntN(n-47)
		v := make([]float64, n)
		for i := k; i < k+12; i++ {
			v[i] = stepSize
		}
		return v, []event{{k, k}, {k + 12, k + 12}}
	}},
	{"trend, 0.5% a commit for 10 commits", func(rng *rand.Rand, n int) ([]float64, []event) {
		k := 15 + rng.IntN(n-35)
		v := make([]float64, n)
		for i := k; i < n; i++ {
			v[i] = stepSize * min(1, float64(i-k+1)/10)
		}
		return v, []event{{k, k + 9}}
	}},
}

// noiseLevels are the standard deviations of a point's measurement error
// (relative to the baseline): a stable benchmark, a typical one and a
// noisy one. A step of 5% is 10, 3.3 and 1.7 of them.
var noiseLevels = []float64{0.005, 0.015, 0.03}

// synthesize returns a series of shape s with n points at noise level sd:
// each point measures its true value with an error drawn from N(0, σ),
// where σ is sd, or 3·sd at one commit in ten (a noisy run), and its 99%
// confidence interval is the measurement ± 2.576·σ, as a comparison that
// knows its own noise would report it.
func synthesize(rng *rand.Rand, s shape, n int, sd float64) ([]detect.Point, []event) {
	truth, events := s.Make(rng, n)
	points := make([]detect.Point, n)
	for i, v := range truth {
		sigma := sd
		if rng.Float64() < 0.1 {
			sigma = 3 * sd
		}
		m := v + sigma*rng.NormFloat64()
		points[i] = detect.Point{Change: m, CI: benchstats.Interval{Low: m - 2.576*sigma, High: m + 2.576*sigma}}
	}
	return points, events
}

// score counts one detector's hits over a set of series.
type score struct {
	detections, matched int // detections, and those that match an event
	events, found       int // injected events, and those some detection matched
	points              int
}

// matches reports whether a detection at index i belongs to event e: it
// lies from one point before the change starts (noise can make the last
// point before a step look changed) to three points after it is
// complete (trend waits for the window, E-divisive for the segment).
func matches(i int, e event) bool { return i >= e.Start-1 && i <= e.End+3 }

// add scores the detections at indexes (sorted, one per index) against
// events.
func (s *score) add(indexes []int, events []event, n int) {
	s.points += n
	s.events += len(events)
	found := make([]bool, len(events))
	for _, i := range indexes {
		s.detections++
		hit := false
		for k, e := range events {
			if matches(i, e) {
				hit, found[k] = true, true
			}
		}
		if hit {
			s.matched++
		}
	}
	for _, f := range found {
		if f {
			s.found++
		}
	}
}

func ratio(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// cell is "precision / recall, false alarms per 100 commits".
func (s score) cell() string {
	return fmt.Sprintf("%s / %s, %.1f", ratio(s.matched, s.detections), ratio(s.found, s.events), 100*float64(s.detections-s.matched)/float64(s.points))
}

// The experiment's size: series per shape and noise level, and commits
// per series (the study's evaluation spanned about 100 commits).
const (
	seriesPerCell = 30
	seriesLength  = 60
)

// detectorKinds are the columns of the table.
var detectorKinds = []detect.Kind{detect.Jump, detect.Trend, detect.EDivisive}

// detectorTable runs every detector over every series and returns the
// Markdown tables: all detections, then definite ones only.
func detectorTable(t *testing.T) string {
	t.Helper()
	type key struct {
		shape, noise int
		kind         detect.Kind
		definite     bool
	}
	scores := map[key]*score{}
	for si, s := range shapes {
		for ni, sd := range noiseLevels {
			rng := rand.New(rand.NewPCG(uint64(si), uint64(ni)))
			for range seriesPerCell {
				points, events := synthesize(rng, s, seriesLength, sd)
				opt := detect.DefaultOptions
				// The initial threshold A/A calibration would give: 75% of
				// the usual interval width.
				opt.InitialThreshold = 0.75 * 2 * 2.576 * sd
				opt.Detectors = detectorKinds
				res, err := detect.Detect(points, opt)
				require.NoError(t, err)
				for _, kind := range detectorKinds {
					for _, definite := range []bool{false, true} {
						var idx []int
						for _, d := range res.Detections {
							if d.Kind == kind && (d.Definite || !definite) {
								idx = append(idx, d.Index)
							}
						}
						k := key{si, ni, kind, definite}
						if scores[k] == nil {
							scores[k] = &score{}
						}
						scores[k].add(idx, events, len(points))
					}
				}
			}
		}
	}
	var b strings.Builder
	for _, definite := range []bool{false, true} {
		if definite {
			b.WriteString("\nDefinite detections only:\n\n")
		} else {
			b.WriteString("All detections, definite and potential:\n\n")
		}
		b.WriteString("| series | noise σ |")
		for _, k := range detectorKinds {
			fmt.Fprintf(&b, " %s |", k)
		}
		b.WriteString("\n| --- | ---: |")
		for range detectorKinds {
			b.WriteString(" --- |")
		}
		b.WriteString("\n")
		for si, s := range shapes {
			for ni, sd := range noiseLevels {
				fmt.Fprintf(&b, "| %s | %.1f%% |", s.Name, 100*sd)
				for _, k := range detectorKinds {
					fmt.Fprintf(&b, " %s |", scores[key{si, ni, k, definite}].cell())
				}
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

// The markers around the generated part of docs/detectors.md.
const (
	tableBegin = "<!-- detector table: generated by go test ./detect -run TestDetectorTableGolden -update -->\n"
	tableEnd   = "<!-- end of the detector table -->\n"
)

// TestDetectorTableGolden checks the precision and recall table in
// docs/detectors.md against a fresh run of the synthetic comparison.
func TestDetectorTableGolden(t *testing.T) {
	const doc = "../../docs/detectors.md"
	old, err := os.ReadFile(doc)
	require.NoError(t, err)
	before, rest, ok := bytes.Cut(old, []byte(tableBegin))
	require.True(t, ok, "%s lacks the line %q", doc, tableBegin)
	_, after, ok := bytes.Cut(rest, []byte(tableEnd))
	require.True(t, ok, "%s lacks the line %q", doc, tableEnd)
	got := string(before) + tableBegin + "\n" + detectorTable(t) + "\n" + tableEnd + string(after)
	golden.Check(t, doc, []byte(got))
}
