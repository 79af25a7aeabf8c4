package compare

import (
	"fmt"

	"github.com/mbopt/mbopt/benchstats"
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
	// FailOnNever never fails.
	FailOnNever FailOn = "never"
)

// FailOns lists the gates, in help order.
var FailOns = []FailOn{FailOnDefiniteRegression, FailOnAnyRegression, FailOnNever}

// ParseFailOn parses a gate name.
func ParseFailOn(s string) (FailOn, error) {
	for _, f := range FailOns {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown gate %q: valid values are definite-regression, any-regression, never", s)
}

// Gate returns the results that fail the gate f, in report order: the
// regressions it counts, in any unit. A benchmark that was added, removed,
// did not build or failed in a version is reported, but never fails the
// gate by itself (docs/compare.md). An empty result passes.
func (r *Report) Gate(f FailOn) []Result {
	if f == FailOnNever {
		return nil
	}
	var fail []Result
	for _, res := range r.Results {
		switch {
		case res.Status == Compared && res.Verdict == benchstats.DefiniteRegression,
			res.Status == Compared && f == FailOnAnyRegression && res.Verdict == benchstats.PotentialRegression:
			fail = append(fail, res)
		}
	}
	return fail
}
