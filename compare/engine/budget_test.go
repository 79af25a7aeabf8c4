package engine

import (
	"strings"
	"testing"
	"time"
)

// TestFitBudget checks the schedule fitBudget chooses for two benchmarks
// of one package at -benchtime 100ms with 100ms process overhead: one
// process of count c takes 0.12c + 0.1 seconds, four processes per run.
func TestFitBudget(t *testing.T) {
	for _, tc := range []struct {
		budget  time.Duration
		want    [3]int
		fits    bool
		comment string
	}{
		{0, [3]int{3, 3, 5}, true, "no budget"},
		{time.Minute, [3]int{3, 3, 5}, true, "3×3×(4×0.7s) = 25.2s fits"},
		{15 * time.Second, [3]int{3, 2, 4}, true, "3 trials kept; the most measurements per trial that fit: 2 runs × count 4 (13.9s; 3×3×3 is 16.6s)"},
		{4 * time.Second, [3]int{3, 1, 1}, true, "trials are kept before runs and counts: 3×1×(4×0.22s) = 2.6s"},
		{2 * time.Second, [3]int{2, 1, 1}, true, "then trials go, down to 2: 2×1×(4×0.22s) = 1.8s"},
		{time.Second, [3]int{2, 1, 1}, false, "too short even for 2×1×1 (1.8s)"},
	} {
		r := &runner{notes: new([]string), s: Schedule{Trials: 3, Runs: 3, Count: 5, BenchTime: "100ms", Budget: tc.budget},
			builds: map[string]*[2]*pkgBuild{"p": {{list: 100 * time.Millisecond}, {list: 100 * time.Millisecond}}},
			units:  []*unit{{pkg: "p", on: [2]bool{true, true}}, {pkg: "p", on: [2]bool{true, true}}}}
		r.fitBudget()
		got := [3]int{r.s.Trials, r.s.Runs, r.s.Count}
		if got != tc.want {
			t.Errorf("budget %s: chose %v, want %v (%s); notes %q", tc.budget, got, tc.want, tc.comment, *r.notes)
		}
		if tc.budget > 0 && (len(*r.notes) != 1 || strings.Contains((*r.notes)[0], "too short") == tc.fits) {
			t.Errorf("budget %s: notes %q", tc.budget, *r.notes)
		}
		if tc.budget > 0 && tc.fits && r.estimate(got[0], got[1], got[2]) > tc.budget {
			t.Errorf("budget %s: the chosen schedule's estimate %s exceeds it", tc.budget, r.estimate(got[0], got[1], got[2]))
		}
	}
}
