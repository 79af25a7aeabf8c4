package compare_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// TestAmortizedBytes: a benchmark that makes 0 allocations per operation
// but whose B/op moves with the iteration count (a buffer grown once,
// spread over the iterations: 74–92 B/op here, as on a real compression
// library) never has a B/op change, even one its interval would call
// definite; it is unchanged with a caveat that says why, and is no test of
// the false-discovery-rate correction. An allocating benchmark's B/op
// change stays a change.
func TestAmortizedBytes(t *testing.T) {
	raw := func(side, commit string, bytesOf func(trial, run int) (amortized, real int)) compare.Input {
		var b strings.Builder
		for trial := 1; trial <= 3; trial++ {
			for run := 1; run <= 3; run++ {
				fmt.Fprintf(&b, "# mbopt-compare side=%s commit=%s trial=%d run=%d\ngoos: linux\npkg: example.com/m\n", side, commit, trial, run)
				am, re := bytesOf(trial, run)
				fmt.Fprintf(&b, "BenchmarkEncode 1000 5000.00 instructions/op %d B/op 0 allocs/op\n", am)
				fmt.Fprintf(&b, "BenchmarkBuild 1000 9000.00 instructions/op %d B/op 3 allocs/op\n", re)
			}
		}
		return compare.Input{Name: side + ".txt", R: strings.NewReader(b.String())}
	}
	base := raw("base", "aaa", func(trial, run int) (int, int) { return 90 + trial + run, 4096 })
	head := raw("head", "bbb", func(trial, run int) (int, int) { return 74 + trial - run, 8192 })
	rep, err := compare.AnalyzeReaders([]compare.Input{base, head}, compare.Settings{Metric: "instructions", Resamples: 2000, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]compare.Result{}
	for _, r := range rep.Results {
		got[r.Name+" "+r.Unit] = r
	}
	enc := got["BenchmarkEncode B/op"]
	if enc.Verdict != benchstats.Unchanged || len(enc.Caveats) != 1 || enc.Caveats[0] != compare.CaveatAmortized {
		t.Errorf("amortized B/op: %s %+.1f%%, caveats %q; want unchanged with the amortized caveat", enc.Verdict, 100*enc.Estimate.Change, enc.Caveats)
	}
	if build := got["BenchmarkBuild B/op"]; build.Verdict != benchstats.DefiniteRegression {
		t.Errorf("allocating benchmark's B/op doubled: %s, want a definite regression", build.Verdict)
	}
	if rep.FalseAlarms.Tests != 1 {
		t.Errorf("%d tests, want 1: the amortized B/op, and the units that did not move, are none", rep.FalseAlarms.Tests)
	}
}
