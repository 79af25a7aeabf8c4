package compare_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/counted"
	"github.com/mbopt/mbopt/testkit/need"
)

// TestConfirmCommand confirms an estimate on the application workload run
// as a command (Confirm.Command, as mbopt run's --app-cmd takes it) with
// the instructions metric, where the comparison's verdict and the
// command's count do not depend on the machine's load: the command's
// instructions on both versions, within the estimate's interval widened
// by its own. The workload is a built program, as Confirm.Command
// advises: each version's test binary, built before and chosen by the
// commit the command runs in (git rev-parse HEAD in the version's
// worktree), running the request's benchmark a fixed number of times.
func TestConfirmCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("compares a fixture and runs its application workload 16 times under Valgrind")
	}
	need.Tool(t, "the confirmation under the instructions metric", "valgrind")
	dir := cmpfixture.HotRepo(t)
	bins := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	for _, tag := range []string{"base", "head"} {
		git("checkout", "-q", tag)
		cmd := exec.Command("go", "test", "-c", "-o", filepath.Join(bins, git("rev-parse", "HEAD")+".test"), "./work")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go test -c at %s: %s", tag, out)
	}
	// The application spends about two thirds of its CPU in Hot (the
	// fixture's profile: 63.6%); Cold and Alloc take the rest.
	app := &callgraph.Application{Shares: map[string]float64{cmpfixture.Hot: 0.636, cmpfixture.Package + ".Cold": 0.33}, Samples: 400}
	workload := `"` + bins + `/$(git rev-parse HEAD).test" -test.run '^$' -test.bench '^` + cmpfixture.HotServe + `$' -test.benchtime 1000x`
	rep, err := compare.Run(context.Background(), compare.Options{Dir: dir, Base: "base", Head: "head", Bench: "^" + cmpfixture.HotWork + "$",
		Settings: counted.Settings(compare.Settings{Trials: 4, Resamples: 2000, Seed: 1}),
		CacheDir: t.TempDir(), Out: t.TempDir(), Relevance: compare.Relevance{Application: app}, Confirm: compare.Confirm{Command: workload}})
	require.NoError(t, err)
	res := resultOf(t, rep, cmpfixture.HotWork, measure.Instructions)
	require.NotNil(t, res.AppImpact, "notes %v", rep.Notes)
	a := res.AppImpact
	t.Logf("%s %+.1f%% %s; application impact %+.2f%% [%+.2f%%, %+.2f%%] (%s)", res.Name, 100*res.Estimate.Change, res.Verdict, 100*a.Estimate, 100*a.Low, 100*a.High, a.Basis)
	assert.Equal(t, benchstats.DefiniteRegression, res.Verdict)
	require.NotNil(t, rep.AppMeasured, "the application was measured: notes %v", rep.Notes)
	m := rep.AppMeasured
	e := m.Estimate
	t.Logf("measured %s (%s): %+.2f%% [%+.2f%%, %+.2f%%]", m.Source, m.Unit, 100*e.Change, 100*e.CI.Low, 100*e.CI.High)
	assert.Equal(t, "command "+workload, m.Source)
	assert.Equal(t, "instructions", m.Unit)
	assert.Equal(t, 8, e.BaseN, "trials × runs measurements per version")
	assert.GreaterOrEqual(t, e.Change, a.Low-(e.Change-e.CI.Low), "measured within the estimate's interval widened by its own")
	assert.LessOrEqual(t, e.Change, a.High+(e.CI.High-e.Change), "measured within the estimate's interval widened by its own")
	// The command ran in the versions' worktrees and wrote nothing into
	// the repository.
	assert.Empty(t, git("status", "--porcelain"), "the repository is untouched")
}
