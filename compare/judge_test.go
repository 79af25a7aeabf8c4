package compare_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
)

// TestJudgeExplainsNothing: compare.Judge on an engine run gives the
// verdicts and no culprit functions (bisect's steps), where Run explains
// the changes.
func TestJudgeExplainsNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	dir := cmpfixture.Repo(t, cmpfixture.Variant{WallTime: true})
	s := compare.Settings{Metric: measure.CPU, Resamples: 2000, Seed: 1}
	raw, err := engine.Run(context.Background(), engine.Plan{Dir: dir, Schedule: s.Schedule(), CacheDir: t.TempDir(), Out: t.TempDir()})
	require.NoError(t, err)
	defer raw.Close()
	rep, err := compare.Judge(raw, s, compare.Relevance{})
	require.NoError(t, err)
	res := byUnit(rep, "cpu-sec/op")
	require.Len(t, res, 3, "%+v", rep.Results)
	require.NotEqual(t, benchstats.Unchanged, res[cmpfixture.Slower].Verdict, "the +30%% must be a change for the test to say anything")
	for name, r := range res {
		assert.Empty(t, r.Culprits, name)
		assert.Nil(t, r.Profiles, name)
	}
}

// TestJudgeChecksSettings: Judge refuses bad settings as Run does.
func TestJudgeChecksSettings(t *testing.T) {
	_, err := compare.Judge(&engine.Raw{}, compare.Settings{Trials: -1}, compare.Relevance{})
	var ie *mbopt.Error
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, mbopt.Field("Settings.Trials"), ie.Field)
}

// TestStepsWithoutWork: Explain and ConfirmImpact, the steps after Judge,
// say in the report's notes why they did nothing: a name that matches no
// result, an estimate that calls for no confirmation; neither touches the
// engine's binaries then. A bad workload is an *mbopt.Error.
func TestStepsWithoutWork(t *testing.T) {
	s := compare.DefaultSettings()
	unchanged := compare.Result{ID: "m/p.BenchmarkA", Package: "m/p", Name: "BenchmarkA", Unit: "sec/op",
		Status: compare.Compared, Estimate: &benchstats.Estimate{}, Verdict: benchstats.Unchanged}
	for _, tc := range []struct {
		name string
		step func(*compare.Report) error
		note string
	}{
		{"explain names nothing", func(rep *compare.Report) error {
			return compare.Explain(context.Background(), &engine.Raw{}, rep, []string{"BenchmarkNoSuch"}, nil)
		}, "explain BenchmarkNoSuch: no benchmark of that name or id was compared in sec/op, so it has no culprit functions"},
		{"nothing to confirm", func(rep *compare.Report) error {
			return compare.ConfirmImpact(context.Background(), &engine.Raw{}, rep, compare.Confirm{Command: "true"})
		}, "confirmation: no estimated application impact passed 0 (any estimate not marked likely no application impact), so the application workload was not measured"},
		{"no workload", func(rep *compare.Report) error {
			return compare.ConfirmImpact(context.Background(), &engine.Raw{}, rep, compare.Confirm{})
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := &compare.Report{Settings: s, Results: []compare.Result{unchanged}}
			require.NoError(t, tc.step(rep))
			if tc.note == "" {
				assert.Empty(t, rep.Notes)
				return
			}
			assert.Equal(t, []string{tc.note}, rep.Notes)
			assert.Empty(t, rep.Results[0].Culprits)
			assert.Nil(t, rep.AppMeasured)
		})
	}
	err := compare.ConfirmImpact(context.Background(), &engine.Raw{}, &compare.Report{Settings: s}, compare.Confirm{Benchmark: "BenchmarkA", Command: "true"})
	var ie *mbopt.Error
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, compare.FieldConfirmBenchmark, ie.Field)
}
