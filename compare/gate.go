package compare

import (
	"fmt"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/enum"
	"github.com/mbopt/mbopt/internal/textutil"
)

// A FailOn says which results fail a CI gate ([Report.Gate]).
type FailOn string

// The gates.
const (
	// FailOnDefiniteRegression fails on a definite regression (the
	// default).
	FailOnDefiniteRegression FailOn = "definite-regression"
	// FailOnAnyRegression fails on a definite or a potential regression.
	FailOnAnyRegression FailOn = "any-regression"
	// FailOnAppImpact fails on a definite regression that matters to the
	// application: one whose culprits put it outside the application's
	// functions (Result.AppImpact.NoImpact, likely no application impact)
	// or whose estimated application impact is below
	// Settings.AppImpactThreshold passes. Where the application itself was
	// measured (Report.AppMeasured), the measurement decides instead of
	// the estimates: every definite regression fails when the measured
	// change is at least the threshold and its interval lies above 0, and
	// none does otherwise. A definite regression without an application
	// impact (no reference profile, a unit other than the metric's,
	// profiles that failed) fails, as with FailOnDefiniteRegression.
	FailOnAppImpact FailOn = "app-impact"
	// FailOnNever never fails.
	FailOnNever FailOn = "never"
)

// FailOns lists the gates, in help order.
var FailOns = []FailOn{FailOnDefiniteRegression, FailOnAnyRegression, FailOnAppImpact, FailOnNever}

// ParseFailOn parses a gate name.
func ParseFailOn(s string) (FailOn, error) {
	return enum.ParseName("unknown gate", s, FailOns)
}

// Gate returns the results that fail the gate f, in report order: the
// regressions it counts, in any unit. A benchmark that was added, removed,
// did not build, failed or skipped itself in a version is reported, but
// never fails the gate by itself (docs/compare.md); one that ran in the
// base and skips itself in the head gets a report note. An empty result
// passes.
func (r *Report) Gate(f FailOn) []Result {
	if f == FailOnNever {
		return nil
	}
	var fail []Result
	for _, res := range r.Results {
		switch {
		case res.Status == Compared && f == FailOnAppImpact && res.Verdict == benchstats.DefiniteRegression && r.AppMeasured != nil:
			if m := r.AppMeasured.Estimate; m.Change >= r.Settings.AppImpactThreshold && m.CI.Low > 0 {
				fail = append(fail, res)
			}
		case res.Status == Compared && f == FailOnAppImpact && res.Verdict == benchstats.DefiniteRegression:
			if a := res.AppImpact; a == nil || !a.NoImpact && a.Estimate >= r.Settings.AppImpactThreshold {
				fail = append(fail, res)
			}
		case res.Status == Compared && res.Verdict == benchstats.DefiniteRegression,
			res.Status == Compared && f == FailOnAnyRegression && res.Verdict == benchstats.PotentialRegression:
			fail = append(fail, res)
		}
	}
	return fail
}

// A GateError is a failed gate: see [Report.GateError].
type GateError struct {
	// FailOn is the gate.
	FailOn FailOn
	// Failed names each benchmark that failed it, once, with the units
	// that did, in the report's order: "id (sec/op, B/op)".
	Failed []string
}

// Error returns the message with the gate's setting named FailOn.
func (e *GateError) Error() string {
	return e.Text(func(f mbopt.Field) string { return string(f) })
}

// Text returns the message with the gate's setting (the field FailOn) named
// by name, as mbopt.Error.Text names fields.
func (e *GateError) Text(name func(mbopt.Field) string) string {
	return fmt.Sprintf("%s %s: the gate failed on %s: %s", name(FieldFailOn), e.FailOn, textutil.Plural(len(e.Failed), "benchmark"), strings.Join(e.Failed, ", "))
}

// GateError returns a *[GateError] naming the benchmarks that fail the gate
// f (see [Report.Gate]), or nil when the report passes it.
func (r *Report) GateError(f FailOn) error {
	fail := r.Gate(f)
	if len(fail) == 0 {
		return nil
	}
	var ids []string
	units := map[string][]string{}
	for _, res := range fail {
		if _, ok := units[res.ID]; !ok {
			ids = append(ids, res.ID)
		}
		units[res.ID] = append(units[res.ID], res.Unit)
	}
	e := &GateError{FailOn: f}
	for _, id := range ids {
		e.Failed = append(e.Failed, id+" ("+strings.Join(units[id], ", ")+")")
	}
	return e
}
