package compare_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
)

// TestExplainMatchesNothing: an Explain name that can name no benchmark of
// the comparison is an mbopt.Error before anything is measured (issue 31:
// it was a note after the whole run); a sub-benchmark of a selected
// benchmark, or its id, passes (sub-benchmarks are known only once they
// run).
func TestExplainMatchesNothing(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	cache := t.TempDir()
	for _, tc := range []struct {
		name    string
		explain string
		bench   string
		refused bool
	}{
		{"no such benchmark", "BenchmarkNoSuch", "", true},
		{"not selected", cmpfixture.Faster, "Slower", true},
		{"an id in another package", "example.com/other." + cmpfixture.Slower, "", true},
		{"an id", cmpfixture.Package + "." + cmpfixture.Slower, "", false},
		{"a sub-benchmark of a selected one", cmpfixture.Slower + "/sub", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var events int
			_, err := compare.Run(context.Background(), compare.Options{Dir: dir, Bench: tc.bench, Settings: compare.Settings{Trials: 1, Runs: 1, Count: 1, BenchTime: "1x", Resamples: 10, Metric: measure.Time},
				Explain: []string{tc.explain}, CacheDir: cache, Out: t.TempDir(), Progress: func(ev compare.Event) {
					if ev.Kind == compare.EventRun {
						events++
					}
				}})
			var ie *mbopt.Error
			if tc.refused {
				require.ErrorAs(t, err, &ie)
				assert.Equal(t, mbopt.Field("Explain"), ie.Field)
				assert.Contains(t, err.Error(), tc.explain)
				assert.Zero(t, events, "nothing is measured")
				return
			}
			require.NoError(t, err)
		})
	}
}
