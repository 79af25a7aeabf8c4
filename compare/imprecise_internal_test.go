package compare

import (
	"slices"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/relevance/measure"
)

// TestImprecise checks that judge marks a counting metric's result whose
// minimum detectable effect is above 1% imprecise, with the reason its
// caveats give, once however often it is judged, and nothing else.
func TestImprecise(t *testing.T) {
	res := func(id, unit string, low, high float64, caveats ...string) Result {
		return Result{ID: id, Unit: unit, Status: Compared, Caveats: caveats,
			Estimate: &benchstats.Estimate{CI: benchstats.Interval{Low: low, High: high}, BaseMedian: 1, HeadMedian: 1, BaseN: 9, HeadN: 9, P: 1}}
	}
	rep := &Report{Settings: Settings{Metric: measure.Instructions}.withDefaults(), Results: []Result{
		res("p.BenchmarkMap", "instructions/op", -0.03, 0.02, "less stable: starts goroutines"),
		res("p.BenchmarkRand", "instructions/op", -0.02, 0.02),
		res("p.BenchmarkHash", "instructions/op", -0.0004, 0.0005),
		res("p.BenchmarkMap", "B/op", -0.03, 0.03),
	}}
	for range 2 {
		judge(rep, nil)
	}
	marked := func(r Result) []string {
		return slices.DeleteFunc(slices.Clone(r.Caveats), func(c string) bool { return !strings.HasPrefix(c, CaveatImprecise) })
	}
	if m := marked(rep.Results[0]); len(m) != 1 || !strings.Contains(m[0], "3%, above 1%: it starts goroutines") {
		t.Errorf("a map benchmark that starts goroutines: caveats %q", rep.Results[0].Caveats)
	}
	if m := marked(rep.Results[1]); len(m) != 1 || !strings.Contains(m[0], "2%, above 1%: the reason is not known") {
		t.Errorf("a benchmark without a known reason: caveats %q", rep.Results[1].Caveats)
	}
	for _, r := range rep.Results[2:] {
		if m := marked(r); len(m) != 0 {
			t.Errorf("%s %s: marked %q", r.ID, r.Unit, m)
		}
	}
	rep.Settings = DefaultSettings()
	judge(rep, nil)
	if m := marked(rep.Results[0]); len(m) != 0 {
		t.Errorf("the time metric: marked %q", m)
	}
}

// TestTargetMDESettings checks TargetMDE's and Jobs's defaults and
// errors, and that a schedule too small for a verdict is not extended.
func TestTargetMDESettings(t *testing.T) {
	instr := Settings{Metric: measure.Instructions}
	if got := instr.Schedule().TargetMDE; got != DefaultTargetMDE {
		t.Errorf("instructions: TargetMDE %v, want %v", got, DefaultTargetMDE)
	}
	if got := (Settings{Metric: measure.CPU}).Schedule().TargetMDE; got != 0 {
		t.Errorf("cpu: TargetMDE %v, want none", got)
	}
	if got := (Settings{Metric: measure.Instructions, TargetMDE: -1}).Schedule().TargetMDE; got != 0 {
		t.Errorf("instructions, TargetMDE -1: %v, want none", got)
	}
	if got := (Settings{Metric: measure.Instructions, Trials: 1, Runs: 1}).Schedule().TargetMDE; got != 0 {
		t.Errorf("instructions at 1 trial × 1 run: TargetMDE %v, want none (too few measurements for a verdict)", got)
	}
	for _, tc := range []struct {
		s    Settings
		want string
	}{
		{Settings{Metric: measure.Time, TargetMDE: 0.001}, "Settings.TargetMDE applies to the counting metrics"},
		{Settings{Metric: measure.Instructions, TargetMDE: 1}, "must be a fraction below 1"},
		{Settings{Metric: measure.Instructions, Jobs: -2}, "Jobs is -2"},
	} {
		if err := tc.s.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one with %q", tc.s, err, tc.want)
		}
	}
}
