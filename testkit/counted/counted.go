// Package counted switches a test's comparison of the fixture (package
// testkit/cmpfixture) to counting instructions, the one way its tests
// whose verdicts are what they check measure: time and CPU-time verdicts
// on a loaded machine once judged the fixture's -30% "unchanged".
package counted

import (
	"cmp"
	"strconv"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/relevance/measure"
)

// Settings returns the settings s of a comparison switched to counting
// instructions. It sets the metric's own count and
// benchtime (compare.CountedCount, compare.CountedBenchTime), a fixed
// schedule (TargetMDE -1) and, for s.Trials trials (0: the default), the
// fewest runs per trial that make the measurements a verdict needs
// (benchstats.MinSamples at s.Confidence).
func Settings(s compare.Settings) compare.Settings {
	d := compare.DefaultSettings()
	s.Trials = cmp.Or(s.Trials, d.Trials)
	s.Metric, s.Count, s.BenchTime, s.TargetMDE = measure.Instructions, compare.CountedCount, compare.CountedBenchTime, -1
	per := s.Trials * s.Count
	s.Runs = (benchstats.MinSamples(cmp.Or(s.Confidence, d.Confidence)) + per - 1) / per
	return s
}

// Args are the flags of mbopt compare that set what [Settings] sets for
// trials trials, to follow a command line's own settings.
func Args(trials int) []string {
	s := Settings(compare.Settings{Trials: trials})
	return []string{"--metric", string(s.Metric), "--trials", strconv.Itoa(s.Trials), "--runs", strconv.Itoa(s.Runs),
		"--count", strconv.Itoa(s.Count), "--benchtime", s.BenchTime, "--target-mde", strconv.FormatFloat(s.TargetMDE, 'g', -1, 64)}
}
