package compare_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
)

// TestGateAppImpact: the gate app-impact passes the definite regressions
// that are likely no application impact or below the threshold, and
// fails the others, those without an estimate too.
func TestGateAppImpact(t *testing.T) {
	reg := func(name string, a *culprit.AppImpact) compare.Result {
		return compare.Result{ID: "p." + name, Name: name, Unit: "sec/op", Status: compare.Compared, Verdict: benchstats.DefiniteRegression, AppImpact: a}
	}
	results := []compare.Result{
		reg("BenchmarkOutside", &culprit.AppImpact{Estimate: 0.02, NoImpact: true}),
		reg("BenchmarkSmall", &culprit.AppImpact{Estimate: 0.0005, RelevantShare: 0.5}),
		reg("BenchmarkLarge", &culprit.AppImpact{Estimate: 0.03, RelevantShare: 1}),
		reg("BenchmarkUnknown", nil),
		{ID: "p.BenchmarkPotential", Name: "BenchmarkPotential", Unit: "sec/op", Status: compare.Compared, Verdict: benchstats.PotentialRegression, AppImpact: &culprit.AppImpact{Estimate: 0.5}},
	}
	measured := func(change, lo, hi float64) *compare.AppMeasurement {
		return &compare.AppMeasurement{Source: "benchmark p.BenchmarkServe", Unit: "sec/op", Estimate: benchstats.Estimate{Change: change, CI: benchstats.Interval{Low: lo, High: hi}}}
	}
	all := []string{"BenchmarkOutside", "BenchmarkSmall", "BenchmarkLarge", "BenchmarkUnknown"}
	for _, tc := range []struct {
		name      string
		f         compare.FailOn
		threshold float64
		measured  *compare.AppMeasurement
		want      []string
	}{
		{"app-impact at 0.1%", compare.FailOnAppImpact, 0.001, nil, []string{"BenchmarkLarge", "BenchmarkUnknown"}},
		{"app-impact at 0", compare.FailOnAppImpact, 0, nil, []string{"BenchmarkSmall", "BenchmarkLarge", "BenchmarkUnknown"}},
		{"app-impact at 5%", compare.FailOnAppImpact, 0.05, nil, []string{"BenchmarkUnknown"}},
		{"a measured regression fails every definite regression", compare.FailOnAppImpact, 0.001, measured(0.02, 0.01, 0.03), all},
		{"a measured regression below the threshold passes", compare.FailOnAppImpact, 0.05, measured(0.02, 0.01, 0.03), nil},
		{"a measured change whose interval holds 0 passes", compare.FailOnAppImpact, 0.001, measured(0.02, -0.01, 0.05), nil},
		{"definite-regression ignores the impact", compare.FailOnDefiniteRegression, 0.05, nil, all},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := &compare.Report{Results: results, Settings: compare.Settings{AppImpactThreshold: tc.threshold}, AppMeasured: tc.measured}
			var got []string
			for _, r := range rep.Gate(tc.f) {
				got = append(got, r.Name)
			}
			assert.Equal(t, tc.want, got)
		})
	}
	f, err := compare.ParseFailOn("app-impact")
	assert.NoError(t, err)
	assert.Equal(t, compare.FailOnAppImpact, f)
	_, err = compare.ParseFailOn("impact")
	assert.EqualError(t, err, `unknown gate "impact": valid values are {definite-regression|any-regression|app-impact|never}`)
}
