package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt/compare/benchstats"
)

func TestReclassify(t *testing.T) {
	est := func(c, lo, hi float64) *benchstats.Estimate {
		return &benchstats.Estimate{Change: c, CI: benchstats.Interval{Low: lo, High: hi}, BaseN: 45, HeadN: 45, P: 0.0002}
	}
	rep := &Report{Settings: Settings{Threshold: 0.01, Confidence: 0.99, FDR: 0.05}, Results: []Result{
		{ID: "m.BenchmarkNoisy", Unit: "sec/op", Status: Compared, Estimate: est(0.04, 0.02, 0.06), Verdict: benchstats.DefiniteRegression},
		{ID: "m.BenchmarkStable", Unit: "sec/op", Status: Compared, Estimate: est(0.04, 0.02, 0.06), Verdict: benchstats.DefiniteRegression},
		{ID: "m.BenchmarkThroughput", Unit: "B/s", Status: Compared, Estimate: est(0.04, 0.02, 0.06), Verdict: benchstats.DefiniteImprovement},
		{ID: "m.BenchmarkNew", Unit: "sec/op", Status: Added},
	}}
	thresholds := map[string]float64{"m.BenchmarkNoisy": 0.03, "m.BenchmarkThroughput": 0.03}
	Reclassify(rep, func(id, unit string) float64 {
		if t, ok := thresholds[id]; ok {
			return t
		}
		return rep.Settings.Threshold
	})
	got := map[string]string{}
	for _, r := range rep.Results {
		got[r.ID] = r.Verdict.String()
		if r.ID == "m.BenchmarkStable" {
			// Definite: the interval clears ±1%, the threshold shown.
			assert.Equal(t, 0.01, r.Threshold)
			assert.Equal(t, benchstats.BasisFixed, r.ThresholdBasis)
		}
		if r.ID == "m.BenchmarkNoisy" {
			assert.Equal(t, 0.03, r.Threshold)
		}
	}
	assert.Equal(t, map[string]string{
		// Its 3% threshold makes the +4% (CI from +2%) potential only.
		"m.BenchmarkNoisy":      "potential-regression",
		"m.BenchmarkStable":     "definite-regression",
		"m.BenchmarkThroughput": "potential-improvement",
		"m.BenchmarkNew":        "unchanged",
	}, got)
	assert.Equal(t, "m.BenchmarkStable", rep.Results[0].ID, "sorted again: the definite regression first")
}
