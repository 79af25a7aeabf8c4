package compare_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// suiteRaw returns the raw result files of a comparison of a suite of n
// benchmarks, BenchmarkB000 …, measured trials × runs × count times per
// version in unit (instructions/op, or ns/op with B/op and allocs/op when
// benchmem), each measurement spread by ±noise around its benchmark's
// level; the head's BenchmarkB000 is ratio times the base's. B/op and
// allocs/op are the same in every measurement of both versions, as a
// benchmark that allocates deterministically has them; with the
// instructions metric they are always there.
func suiteRaw(n, trials, runs, count int, unit string, noise, ratio float64, benchmem bool, seed uint64) []compare.Input {
	rng := rand.New(rand.NewPCG(seed, 31))
	var inputs []compare.Input
	for _, side := range []struct {
		name, commit string
		ratio        float64
	}{{"base", "aaa", 1}, {"head", "bbb", ratio}} {
		var b strings.Builder
		for trial := 1; trial <= trials; trial++ {
			for run := 1; run <= runs; run++ {
				fmt.Fprintf(&b, "# mbopt-compare side=%s commit=%s trial=%d run=%d\ngoos: linux\npkg: example.com/m\n", side.name, side.commit, trial, run)
				for i := range n {
					level := 1e6 * float64(1+i%7)
					if i == 0 {
						level *= side.ratio
					}
					for range count {
						v := level * (1 + noise*(2*rng.Float64()-1))
						fmt.Fprintf(&b, "BenchmarkB%03d 1000 %.2f %s", i, v, unit)
						if benchmem {
							fmt.Fprintf(&b, " %d B/op %d allocs/op", 64*(i%3), i%3)
						}
						b.WriteString("\n")
					}
				}
			}
		}
		inputs = append(inputs, compare.Input{Name: side.name + ".txt", R: strings.NewReader(b.String())})
	}
	return inputs
}

// TestLoneChangeInALargeSuite: the false-discovery-rate correction never
// makes a change that its own interval shows far beyond the threshold
// undetectable, whatever the suite's size (issue 31 item 1). The
// bootstrap p-value had a floor of 2/(R+1) and Benjamini–Hochberg
// multiplied it by the number of tests, B/op and allocs/op that did not
// move and have no noise included, so in a suite of 300 benchmarks under
// instructions a +5% change could not be definite, nor a 3× slowdown
// among 91 benchmarks with --benchmem. An A/A of the same suite flags
// nothing.
func TestLoneChangeInALargeSuite(t *testing.T) {
	for _, tc := range []struct {
		name                string
		n                   int
		trials, runs, count int
		unit                string
		noise, ratio        float64
		benchmem            bool
		resamples           int
		want                benchstats.Verdict
	}{
		{"300 benchmarks, instructions +5%", 300, 3, 3, 1, "instructions/op", 0.0002, 1.05, true, 0, benchstats.DefiniteRegression},
		{"300 benchmarks, instructions A/A", 300, 3, 3, 1, "instructions/op", 0.0002, 1, true, 0, benchstats.Unchanged},
		{"91 benchmarks with benchmem, 3x slower", 91, 2, 1, 4, "ns/op", 0.3, 3, true, 0, benchstats.DefiniteRegression},
		{"91 benchmarks with benchmem, A/A", 91, 2, 1, 4, "ns/op", 0.3, 1, true, 0, benchstats.Unchanged},
		{"2 benchmarks at 200 resamples, instructions +200%", 2, 3, 3, 1, "instructions/op", 0.0002, 3, true, 200, benchstats.DefiniteRegression},
		{"1000 benchmarks, instructions +5%", 1000, 3, 3, 1, "instructions/op", 0.0002, 1.05, true, 0, benchstats.DefiniteRegression},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := compare.Settings{Seed: 1, Resamples: tc.resamples, Benchmem: tc.benchmem}
			if tc.unit == "instructions/op" {
				s.Metric = "instructions"
			}
			rep, err := compare.AnalyzeReaders(suiteRaw(tc.n, tc.trials, tc.runs, tc.count, tc.unit, tc.noise, tc.ratio, tc.benchmem, 1), s, nil)
			if err != nil {
				t.Fatal(err)
			}
			definite := 0
			var lone compare.Result
			for _, r := range rep.Results {
				if r.Verdict.Definite() {
					definite++
				}
				if r.Name == "BenchmarkB000" && r.Unit != "B/op" && r.Unit != "allocs/op" {
					lone = r
				}
			}
			if lone.Estimate == nil {
				t.Fatalf("no result of BenchmarkB000: %+v", rep.Results)
			}
			e := lone.Estimate
			t.Logf("BenchmarkB000 %+.1f%% [%+.1f%%, %+.1f%%] p %.3g adjusted %.3g: %s; %d tests, %d definite", 100*e.Change, 100*e.CI.Low, 100*e.CI.High, e.P, lone.PAdjusted, lone.Verdict, rep.FalseAlarms.Tests, definite)
			if lone.Verdict != tc.want {
				t.Errorf("BenchmarkB000: %s, want %s", lone.Verdict, tc.want)
			}
			wantDefinite := 0
			if tc.want.Definite() {
				wantDefinite = 1
			}
			if definite != wantDefinite {
				t.Errorf("%d definite results, want %d", definite, wantDefinite)
			}
			if fails := len(rep.Gate(compare.FailOnDefiniteRegression)) > 0; fails != tc.want.Definite() {
				t.Errorf("the default gate fails: %t, want %t", fails, tc.want.Definite())
			}
			// B/op and allocs/op that did not move and have no noise are
			// not tests: only the metric's results count.
			if rep.FalseAlarms.Tests != tc.n {
				t.Errorf("the correction covered %d tests, want the %d of the metric (B/op and allocs/op did not move)", rep.FalseAlarms.Tests, tc.n)
			}
		})
	}
}
