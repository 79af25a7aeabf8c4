package compare_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// rawSchedule returns the raw result files of a comparison of one
// benchmark run trials × runs × count times per version, the head's values
// ratio times the base's, each measurement a little apart from the last
// (a spread of ±0.3%).
func rawSchedule(trials, runs, count int, ratio float64) []compare.Input {
	var inputs []compare.Input
	for _, side := range []struct {
		name, commit string
		ratio        float64
	}{{"base", "aaa", 1}, {"head", "bbb", ratio}} {
		var b strings.Builder
		k := 0
		for trial := 1; trial <= trials; trial++ {
			for run := 1; run <= runs; run++ {
				fmt.Fprintf(&b, "# mbopt-compare side=%s commit=%s trial=%d run=%d\ngoos: linux\npkg: example.com/m\n", side.name, side.commit, trial, run)
				for range count {
					v := 1000 * side.ratio * (1 + 0.003*float64(k%3-1))
					fmt.Fprintf(&b, "BenchmarkStable 1000 %.3f ns/op\n", v)
					k++
				}
			}
		}
		inputs = append(inputs, compare.Input{Name: side.name + ".txt", R: strings.NewReader(b.String())})
	}
	return inputs
}

// TestTooFewSamplesNoVerdict: a version with fewer measurements than a
// verdict needs at the confidence asked (benchstats.MinSamples) gets "too
// few samples", never a definite verdict, and never fails the gate, even
// when its interval lies far beyond the threshold (issue 25 item 8: a
// commit compared with itself at 2 trials × 1 run × 2 counts was a
// "definite regression" with exit 3); the defaults and 3 × 2 × 3 still
// give a verdict.
func TestTooFewSamplesNoVerdict(t *testing.T) {
	for _, tc := range []struct {
		name                string
		trials, runs, count int
		ratio               float64
		tooFew              bool
		want                benchstats.Verdict
	}{
		{"2x1x2, +30%", 2, 1, 2, 1.3, true, benchstats.Unchanged},
		{"2x1x2, same commit shifted by noise", 2, 1, 2, 1.02, true, benchstats.Unchanged},
		{"3x2x3, +30%", 3, 2, 3, 1.3, false, benchstats.DefiniteRegression},
		{"defaults, +30%", 3, 3, 5, 1.3, false, benchstats.DefiniteRegression},
		{"defaults, the same", 3, 3, 5, 1, false, benchstats.Unchanged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := compare.DefaultSettings()
			s.Trials, s.Runs, s.Count, s.Resamples = tc.trials, tc.runs, tc.count, 2000
			rep, err := compare.AnalyzeReaders(rawSchedule(tc.trials, tc.runs, tc.count, tc.ratio), s, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 {
				t.Fatalf("%d results, want 1: %+v", len(rep.Results), rep.Results)
			}
			r := rep.Results[0]
			if r.Status != compare.Compared || r.Estimate == nil {
				t.Fatalf("result %+v, want compared with an estimate", r)
			}
			if n := tc.trials * tc.runs * tc.count; r.Estimate.BaseN != n || r.Estimate.HeadN != n {
				t.Errorf("%d and %d measurements, want %d per version", r.Estimate.BaseN, r.Estimate.HeadN, n)
			}
			if r.TooFew != tc.tooFew || r.Verdict != tc.want {
				t.Errorf("too few %v, verdict %v (change %+.3f, CI [%+.3f, %+.3f]); want too few %v, verdict %v",
					r.TooFew, r.Verdict, r.Estimate.Change, r.Estimate.CI.Low, r.Estimate.CI.High, tc.tooFew, tc.want)
			}
			for _, f := range []compare.FailOn{compare.FailOnDefiniteRegression, compare.FailOnAnyRegression} {
				failed := rep.GateError(f) != nil
				if wantFail := tc.want == benchstats.DefiniteRegression; failed != wantFail {
					t.Errorf("--fail-on %s: gate failed %v, want %v", f, failed, wantFail)
				}
			}
		})
	}
}
