package counted_test

import (
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/counted"
)

// TestSettings: the fewest runs per trial whose measurements reach the
// minimum a verdict needs, whatever the trials, and the metric's own
// count and benchtime on a fixed schedule.
func TestSettings(t *testing.T) {
	need := benchstats.MinSamples(compare.DefaultSettings().Confidence)
	for _, trials := range []int{0, 1, 2, 3, 4, 9} {
		s := counted.Settings(compare.Settings{Trials: trials, Seed: 7})
		n := s.Trials * s.Runs * s.Count
		if n < need || s.Trials*(s.Runs-1)*s.Count >= need {
			t.Errorf("%d trials: %d runs of %d make %d measurements; a verdict needs %d", trials, s.Runs, s.Count, n, need)
		}
		if s.Metric != measure.Instructions || s.TargetMDE != -1 || s.BenchTime != compare.CountedBenchTime || s.Seed != 7 {
			t.Errorf("%d trials: %+v", trials, s)
		}
	}
	if got := counted.Args(2); len(got) != 12 || got[1] != "instructions" || got[5] != "4" {
		t.Errorf("Args(2) = %v, want --metric instructions, 2 trials of 4 runs", got)
	}
}
