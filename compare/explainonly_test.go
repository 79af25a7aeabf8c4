package compare_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/testing/cmpfixture"
	"github.com/mbopt/mbopt/measure"
)

// TestExplainOnly: with Options.ExplainOnly, a change gets no culprit
// functions unless Options.Explain names its benchmark (bisect's steps).
func TestExplainOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	dir := cmpfixture.Repo(t, cmpfixture.Variant{WallTime: true})
	rep, err := compare.Run(context.Background(), compare.Options{Dir: dir, Settings: compare.Settings{Metric: measure.CPU, Resamples: 2000, Seed: 1},
		Explain: []string{cmpfixture.Faster}, ExplainOnly: true, CacheDir: t.TempDir(), Out: t.TempDir()})
	require.NoError(t, err)
	res := byUnit(rep, "cpu-sec/op")
	require.Len(t, res, 3, "%+v", rep.Results)
	require.NotEqual(t, benchstats.Unchanged, res[cmpfixture.Slower].Verdict, "the +30%% must be a change for the test to say anything")
	assert.Empty(t, res[cmpfixture.Slower].Culprits, "a change not named")
	assert.Nil(t, res[cmpfixture.Slower].Profiles)
	assert.NotEmpty(t, res[cmpfixture.Faster].Culprits, "the benchmark named")
}
