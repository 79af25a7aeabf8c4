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
	"github.com/mbopt/mbopt/compare/measure"
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
