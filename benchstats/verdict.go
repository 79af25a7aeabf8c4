package benchstats

import (
	"fmt"
	"math"
)

// A Verdict classifies an [Estimate] against a threshold.
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
