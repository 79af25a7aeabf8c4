package compare_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/culprit"
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
	for _, tc := range []struct {
		name      string
		f         compare.FailOn
		threshold float64
		want      []string
	}{
		{"app-impact at 0.1%", compare.FailOnAppImpact, 0.001, []string{"BenchmarkLarge", "BenchmarkUnknown"}},
		{"app-impact at 0", compare.FailOnAppImpact, 0, []string{"BenchmarkSmall", "BenchmarkLarge", "BenchmarkUnknown"}},
		{"app-impact at 5%", compare.FailOnAppImpact, 0.05, []string{"BenchmarkUnknown"}},
		{"definite-regression ignores the impact", compare.FailOnDefiniteRegression, 0.05, []string{"BenchmarkOutside", "BenchmarkSmall", "BenchmarkLarge", "BenchmarkUnknown"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := &compare.Report{Results: results, Settings: compare.Settings{AppImpactThreshold: tc.threshold}}
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
	assert.EqualError(t, err, `unknown gate "impact": valid values are definite-regression, any-regression, app-impact, never`)
}
