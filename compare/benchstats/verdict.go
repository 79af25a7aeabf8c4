package benchstats

import (
	"fmt"
	"math"
)

// A Verdict classifies an [Estimate] against a threshold.
//
// Verdicts are ordered for readers by one rule, [Verdict.Severity]:
// regressions before improvements, and within each direction definite
// before potential, so DefiniteRegression, PotentialRegression,
// DefiniteImprovement, PotentialImprovement, then Unchanged. A potential
// regression outranks a definite improvement because a regression is what
// a reviewer must act on and what a CI gate may fail on (compare's
// FailOnAnyRegression). Every ordered list of results or verdicts uses it:
// package compare's SortResults, and the headline and tally of a
// comparison's report. The constants' numeric order is not this order.
type Verdict int

// The verdicts, from no change to a definite one. Their text forms are
// the stable names used in JSON.
const (
	// Unchanged: the median change lies inside the threshold band.
	Unchanged Verdict = iota
	// PotentialImprovement: the median change is an improvement beyond the
	// threshold, but the interval reaches into the band.
	PotentialImprovement
	// PotentialRegression: the median change is a regression beyond the
	// threshold, but the interval reaches into the band.
	PotentialRegression
	// DefiniteImprovement: the whole interval is an improvement beyond the
	// threshold.
	DefiniteImprovement
	// DefiniteRegression: the whole interval is a regression beyond the
	// threshold.
	DefiniteRegression
)

var verdictNames = [...]string{"unchanged", "potential-improvement", "potential-regression", "definite-improvement", "definite-regression"}

// String returns the verdict's stable name, such as "definite-regression".
func (v Verdict) String() string {
	if v < 0 || int(v) >= len(verdictNames) {
		return fmt.Sprintf("Verdict(%d)", int(v))
	}
	return verdictNames[v]
}

// MarshalText returns the stable name.
func (v Verdict) MarshalText() ([]byte, error) {
	if v < 0 || int(v) >= len(verdictNames) {
		return nil, fmt.Errorf("benchstats: unknown verdict %d", int(v))
	}
	return []byte(verdictNames[v]), nil
}

// UnmarshalText parses a stable name.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, n := range verdictNames {
		if n == string(b) {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("benchstats: unknown verdict %q", b)
}

// Definite reports whether v is a definite change.
func (v Verdict) Definite() bool { return v == DefiniteImprovement || v == DefiniteRegression }

// Regression reports whether v is a regression, definite or potential.
func (v Verdict) Regression() bool { return v == DefiniteRegression || v == PotentialRegression }

// Improvement reports whether v is an improvement, definite or potential.
func (v Verdict) Improvement() bool { return v == DefiniteImprovement || v == PotentialImprovement }

// Severity ranks v by the order documented on [Verdict], larger first:
// DefiniteRegression 4, PotentialRegression 3, DefiniteImprovement 2,
// PotentialImprovement 1, Unchanged (and any unknown value) 0.
func (v Verdict) Severity() int {
	switch v {
	case DefiniteRegression:
		return 4
	case PotentialRegression:
		return 3
	case DefiniteImprovement:
		return 2
	case PotentialImprovement:
		return 1
	}
	return 0
}

// Detections returns the verdicts of a change beyond the threshold, every
// verdict but Unchanged, most severe first ([Verdict.Severity]). The slice
// is new on every call.
func Detections() []Verdict {
	return []Verdict{DefiniteRegression, PotentialRegression, DefiniteImprovement, PotentialImprovement}
}

// Classify classifies e against the threshold band [−threshold, +threshold]
// of relative changes (0.01 is 1%). higherIsBetter says which direction is
// an improvement: false for times and allocations, true for throughput.
// Bounds are strict: an interval that ends exactly on the threshold
// reaches into the band.
func Classify(e Estimate, threshold float64, higherIsBetter bool) Verdict {
	threshold = math.Abs(threshold)
	var up, down Verdict // the verdicts for an increase and a decrease
	if higherIsBetter {
		up, down = DefiniteImprovement, DefiniteRegression
	} else {
		up, down = DefiniteRegression, DefiniteImprovement
	}
	switch {
	case e.CI.Low > threshold:
		return up
	case e.CI.High < -threshold:
		return down
	case e.Change > threshold:
		return potential(up)
	case e.Change < -threshold:
		return potential(down)
	}
	return Unchanged
}

func potential(v Verdict) Verdict {
	if v == DefiniteImprovement {
		return PotentialImprovement
	}
	return PotentialRegression
}
