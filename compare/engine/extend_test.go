package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/relevance/measure"
)

// TestExtend checks when Schedule.TargetMDE adds a trial after the last
// one planned: while a benchmark is neither stopped nor failed, up to
// ExtraTrialsFactor × Trials, and while the budget has room for a trial.
func TestExtend(t *testing.T) {
	for _, tc := range []struct {
		name    string
		target  float64
		t       int
		budget  time.Duration
		stopped bool
		want    bool
		note    string
	}{
		{"no target", 0, 3, 0, false, false, ""},
		{"above the target after the planned trials", 0.001, 3, 0, false, true, "got more trials"},
		{"still above it", 0.001, 7, 0, false, true, ""},
		{"at 4 times the planned trials", 0.001, 12, 0, false, false, "4 times those planned"},
		{"every benchmark reached it", 0.001, 3, 0, true, false, ""},
		{"the budget has no room for a trial", 0.001, 3, time.Second, false, false, "the budget 1s ran out"},
		{"the budget has room", 0.001, 3, time.Hour, false, true, "got more trials"},
	} {
		u := &unit{on: [2]bool{true, true}, stopped: tc.stopped, wall: time.Duration(tc.t) * 2 * time.Second}
		r := &runner{notes: new([]string), start: time.Now(), units: []*unit{u},
			s: Schedule{Trials: 3, Runs: 3, Count: 1, TargetMDE: tc.target, Budget: tc.budget, Metric: measure.Instructions, Jobs: 1}}
		got := r.extend(tc.t)
		if got != tc.want {
			t.Errorf("%s: extend(%d) = %v, want %v (notes %q)", tc.name, tc.t, got, tc.want, *r.notes)
		}
		if got && r.total != 2*r.s.Runs {
			t.Errorf("%s: total %d, want the trial's %d processes", tc.name, r.total, 2*r.s.Runs)
		}
		if (tc.note == "") != (len(*r.notes) == 0) || tc.note != "" && !strings.Contains((*r.notes)[0], tc.note) {
			t.Errorf("%s: notes %q, want one with %q", tc.name, *r.notes, tc.note)
		}
	}
}

// TestPrecise checks the stopping rule of UntilStable (the interval's
// width) and TargetMDE (its larger half-width around the change).
func TestPrecise(t *testing.T) {
	est := benchstats.Estimate{Change: 0.0002, CI: benchstats.Interval{Low: -0.0006, High: 0.0004}} // MDE 0.08%, width 0.1%
	for _, tc := range []struct {
		s    Schedule
		want bool
	}{
		{Schedule{}, false},
		{Schedule{TargetMDE: 0.001}, true},
		{Schedule{TargetMDE: 0.0005}, false},
		{Schedule{UntilStable: 0.002}, true},
		{Schedule{UntilStable: 0.001}, false},
		{Schedule{UntilStable: 0.001, TargetMDE: 0.001}, true},
	} {
		r := &runner{s: tc.s}
		if got := r.precise(est); got != tc.want {
			t.Errorf("%+v: precise = %v, want %v", tc.s, got, tc.want)
		}
	}
}
