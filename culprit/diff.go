package culprit

import (
	"cmp"
	"math"
	"slices"
)

// A Culprit is one function's part in a benchmark's change.
type Culprit struct {
	// Function is the function, with its package path.
	Function string `json:"function"`
	// Base is its per-operation value in base.
	Base float64 `json:"base"`
	// Head is its per-operation value in head.
	Head float64 `json:"head"`
	// Delta is Head − Base.
	Delta float64 `json:"delta"`
	// Share is Delta divided by the benchmark's total change (positive
	// when the function moved the way the benchmark did).
	Share float64 `json:"share"`
	// InApp says whether the application's reference profile has the
	// function.
	InApp bool `json:"in_application"`
}

// A Diff is the per-function difference of two profiles of a benchmark.
type Diff struct {
	// Base is the benchmark's per-operation total in base.
	Base float64 `json:"base"`
	// Head is the benchmark's per-operation total in head.
	Head float64 `json:"head"`
	// Culprits are the functions whose value changed, by Share, highest
	// first; ties by function name.
	Culprits []Culprit `json:"culprits"`
	// AppRelevantShare is the part of the change in functions the
	// application runs: the sum of the Share of culprits with InApp.
	AppRelevantShare float64 `json:"app_relevant_share"`
}

// Compare diffs base and head per function. app is the application's
// reference profile as each function's share of the application's CPU
// (0..1, the flat share); a function with a positive share is InApp. A nil
// app marks no function. When the totals are equal, Share is zero.
func Compare(base, head *Profile, app map[string]float64) Diff {
	b, h := base.Funcs(), head.Funcs()
	d := Diff{Base: base.Total(), Head: head.Total()}
	change := d.Head - d.Base
	names := map[string]bool{}
	for f := range b {
		names[f] = true
	}
	for f := range h {
		names[f] = true
	}
	for f := range names {
		c := Culprit{Function: f, Base: b[f], Head: h[f], Delta: h[f] - b[f], InApp: app[f] > 0}
		if math.Abs(c.Delta) < 0.5 && c.Delta != 0 && base.Unit == "instructions" {
			continue // below one instruction per operation: rounding of the two counts
		}
		if c.Delta == 0 {
			continue
		}
		if change != 0 {
			c.Share = c.Delta / change
		}
		if c.InApp {
			d.AppRelevantShare += c.Share
		}
		d.Culprits = append(d.Culprits, c)
	}
	slices.SortFunc(d.Culprits, func(x, y Culprit) int {
		return cmp.Or(cmp.Compare(y.Share, x.Share), cmp.Compare(math.Abs(y.Delta), math.Abs(x.Delta)), cmp.Compare(x.Function, y.Function))
	})
	return d
}

// NoImpactShare is the application-relevant share below which a change
// is "likely no application impact": less than a tenth of the
// benchmark's change lies in functions the application runs.
const NoImpactShare = 0.1

// An AppImpact is the estimated effect of a benchmark's change on the
// application's CPU time.
type AppImpact struct {
	// Estimate is the relative change of the application's CPU time
	// (+0.02: 2% more).
	Estimate float64 `json:"app_impact"`
	// Low is the lower end of the estimate's interval.
	Low float64 `json:"app_impact_low"`
	// High is the upper end of the estimate's interval.
	High float64 `json:"app_impact_high"`
	// RelevantShare is the Diff's AppRelevantShare.
	RelevantShare float64 `json:"app_relevant_share"`
	// NoImpact marks a change that lies outside the application's
	// functions (RelevantShare below NoImpactShare): likely no
	// application impact.
	NoImpact bool `json:"likely_no_app_impact,omitempty"`
}

// Impact estimates the application's relative change from d: Σ over
// changed functions of app[f] (the function's share of application CPU)
// × Delta/Base (its relative change; functions new in head have no
// application share). The interval scales the estimate by the benchmark's
// confidence interval of its relative change, [lo, hi], over its point
// estimate rel: the measurement's uncertainty carried through the same
// proportions. With rel zero the interval is the estimate.
func Impact(d Diff, app map[string]float64, rel, lo, hi float64) AppImpact {
	a := AppImpact{RelevantShare: d.AppRelevantShare}
	for _, c := range d.Culprits {
		if c.Base > 0 {
			a.Estimate += app[c.Function] * c.Delta / c.Base
		}
	}
	a.Low, a.High = a.Estimate, a.Estimate
	if rel != 0 {
		a.Low, a.High = a.Estimate*lo/rel, a.Estimate*hi/rel
		if a.Low > a.High {
			a.Low, a.High = a.High, a.Low
		}
	}
	a.NoImpact = a.RelevantShare < NoImpactShare
	return a
}
