package compare_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/testing/cmpfixture"
	"github.com/mbopt/mbopt/measure"
	"github.com/mbopt/mbopt/relevance"
)

// TestConfirmCommand confirms an estimate on the application workload run
// as a command (Confirm.Command, as mbopt run's --app-cmd takes it) with
// the cpu metric: the command's CPU time on both versions, within the
// estimate's interval widened by its own. The workload is go test of the
// request's benchmark at a fixed iteration count; its build is part of
// each run, the same in both versions.
func TestConfirmCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("compares a fixture and runs its application workload 12 times")
	}
	dir := cmpfixture.HotRepo(t)
	// The application spends about two thirds of its CPU in Hot (the
	// fixture's profile: 63.6%); Cold and Alloc take the rest.
	app := &relevance.Application{Shares: map[string]float64{cmpfixture.Hot: 0.636, cmpfixture.Package + ".Cold": 0.33}, Samples: 400}
	workload := "go test -run '^$' -bench '^" + cmpfixture.HotServe + "$' -benchtime 8000x -cpuprofile {profile} ./work"
	rep, err := compare.Run(context.Background(), compare.Options{Dir: dir, Base: "base", Head: "head", Bench: "^" + cmpfixture.HotWork + "$",
		Settings: compare.Settings{Trials: 4, Runs: 2, Count: 1, Resamples: 2000, Seed: 1, Metric: measure.CPU},
		CacheDir: t.TempDir(), Out: t.TempDir(), Application: app, Confirm: compare.Confirm{Command: workload}})
	require.NoError(t, err)
	res := resultOf(t, rep, cmpfixture.HotWork, measure.CPU)
	require.NotNil(t, res.AppImpact, "notes %v", rep.Notes)
	a := res.AppImpact
	t.Logf("%s %+.1f%% %s; application impact %+.2f%% [%+.2f%%, %+.2f%%] (%s)", res.Name, 100*res.Estimate.Change, res.Verdict, 100*a.Estimate, 100*a.Low, 100*a.High, a.Basis)
	assert.Equal(t, benchstats.DefiniteRegression, res.Verdict)
	require.NotNil(t, rep.AppMeasured, "the application was measured: notes %v", rep.Notes)
	m := rep.AppMeasured
	e := m.Estimate
	t.Logf("measured %s (%s): %+.2f%% [%+.2f%%, %+.2f%%]", m.Source, m.Unit, 100*e.Change, 100*e.CI.Low, 100*e.CI.High)
	assert.Equal(t, "command "+workload, m.Source)
	assert.Equal(t, "cpu-sec", m.Unit)
	assert.Equal(t, 8, e.BaseN, "trials × runs measurements per version")
	assert.GreaterOrEqual(t, e.Change, a.Low-(e.Change-e.CI.Low), "measured within the estimate's interval widened by its own")
	assert.LessOrEqual(t, e.Change, a.High+(e.CI.High-e.Change), "measured within the estimate's interval widened by its own")
	// The command ran in the versions' checkouts, not in the repository.
	_, err = os.Stat(filepath.Join(dir, "work", "work.test"))
	assert.True(t, os.IsNotExist(err), "go test -cpuprofile left no binary in the repository")
}
