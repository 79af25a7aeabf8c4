package mutate_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/mutate"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/need"
)

// TestRunHot slows Hot down by 10% of its own cost and compares with
// instruction counts: BenchmarkServe, in which Hot is two thirds of the
// work, reports a definite regression of about 6.8%, and the repository is
// untouched.
func TestRunHot(t *testing.T) {
	if testing.Short() {
		t.Skip("sizes a mutant and compares it under Valgrind")
	}
	need.Tool(t, "mbopt mutate", "valgrind")
	dir := cmpfixture.HotRepo(t)
	res, err := mutate.Run(context.Background(), mutate.Options{Func: cmpfixture.Hot, Slowdown: 0.10,
		Compare: compare.Options{Dir: dir, Bench: "^" + cmpfixture.HotServe + "$", Settings: compare.Settings{Metric: measure.Instructions, Seed: 1}, CacheDir: t.TempDir(), Out: t.TempDir()}})
	require.NoError(t, err)
	t.Logf("%s +%.0f%%: %d iterations, sized by %s %+v; caught %v by %v", res.Function, 100*res.Slowdown, res.Iterations, res.SizedBy, res.Sizing, res.Caught, res.CaughtBy)
	assert.Equal(t, "work/work.go", res.File)
	assert.Equal(t, cmpfixture.Package+"."+cmpfixture.HotServe, res.SizedBy)
	require.True(t, res.Caught, "notes %v", res.Report.Notes)
	assert.Equal(t, []string{cmpfixture.Package + "." + cmpfixture.HotServe}, res.CaughtBy)
	r := res.Report.Results[0]
	want := res.Slowdown * res.Sizing.SelfPerOp / r.Estimate.BaseMedian
	t.Logf("%s %+.2f%% [%+.2f%%, %+.2f%%], want %+.2f%%", r.Name, 100*r.Estimate.Change, 100*r.Estimate.CI.Low, 100*r.Estimate.CI.High, 100*want)
	assert.InDelta(t, want, r.Estimate.Change, 0.005, "the mutant adds 10%% of Hot's own instructions")
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain").CombinedOutput()
	require.NoError(t, err)
	assert.Empty(t, string(out), "the source tree is untouched")
}
