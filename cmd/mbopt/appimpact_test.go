package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/need"
)

// TestCompareApplicationImpact is issue 30's check, as a user runs it: a
// module whose application request spends most of its CPU in Hot, a commit
// that makes Hot do exactly 10% more work, the analysis flags from a fresh
// CPU profile of the request and mbopt profile, and mbopt compare
// --metric instructions --bench BenchmarkWork (Hot beside an allocating
// helper) --confirm --app-benchmark BenchmarkServe, twice with different
// seeds. Each run finds the definite regression with Hot its only culprit,
// estimates the application impact within 25% of the truth (Hot's flat
// share of the application profile × 10%), the two intervals overlap, and
// the application measured on both versions lies within the estimate's
// interval widened by its own.
func TestCompareApplicationImpact(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles a fixture module and compares it twice under Valgrind")
	}
	need.Tool(t, "the application-impact check", "valgrind")
	bin := buildMbopt(t)
	dir := cmpfixture.HotRepo(t)
	run := func(name string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CI=true")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %v:\n%s", name, args, out)
		return out
	}
	run("git", "checkout", "-q", "base")
	// The application's reference profile: its request, about 3 s of CPU.
	work := t.TempDir()
	testBin := filepath.Join(work, "work.test")
	run("go", "test", "-c", "-o", testBin, "./work")
	app := filepath.Join(work, "app.pprof")
	run(testBin, "-test.run", "^$", "-test.bench", "^"+cmpfixture.HotServe+"$", "-test.benchtime", "3s", "-test.cpuprofile", app)
	g, err := callgraph.Load([]string{app}, callgraph.Options{})
	require.NoError(t, err)
	id, ok := g.Lookup(cmpfixture.Hot)
	require.True(t, ok, "the profile has %s", cmpfixture.Hot)
	// Its flat share, with the samples that landed in the runtime's
	// asynchronous preemption while it ran (on a loaded machine a tenth
	// of them), as mbopt credits them.
	share := (g.Nodes[id].Flat + g.FlatCallers["runtime.asyncPreempt"][cmpfixture.Hot]) / g.Total
	truth := share * cmpfixture.HotChange
	t.Logf("the application profile: %d samples, Hot's flat share %.1f%%: truth %+.2f%%", g.SamplesTaken, 100*share, 100*truth)
	profiles := filepath.Join(work, "profiles")
	run(bin, "profile", "--out", profiles)

	var reps []compare.Report
	for _, seed := range []string{"1", "2"} {
		out := filepath.Join(work, "compare-"+seed+".json")
		run(bin, "compare", "--base", "base", "--head", "head", "--metric", "instructions", "--target-mde", "-1", "--bench", "^"+cmpfixture.HotWork+"$",
			"--app", app, "--micro", profiles, "--module", cmpfixture.Module, "--confirm", "--app-benchmark", cmpfixture.HotServe,
			"--seed", seed, "--no-history", "--format", "json", "-o", out, "--fail-on", "never")
		data, err := os.ReadFile(out)
		require.NoError(t, err)
		var rep compare.Report
		require.NoError(t, json.Unmarshal(data, &rep))
		reps = append(reps, rep)
	}
	var low, high []float64
	for i, rep := range reps {
		var res *compare.Result
		for k := range rep.Results {
			if r := &rep.Results[k]; r.Name == cmpfixture.HotWork && r.Unit == "instructions/op" {
				res = r
			}
		}
		require.NotNil(t, res, "run %d: no instructions/op result of %s", i+1, cmpfixture.HotWork)
		a := res.AppImpact
		require.NotNil(t, a, "run %d: no application impact", i+1)
		t.Logf("run %d: %s %+.2f%% %s; culprits %v; application impact %+.2f%% [%+.2f%%, %+.2f%%] (%s)", i+1, res.Name, 100*res.Estimate.Change,
			res.Verdict, culpritNames(res), 100*a.Estimate, 100*a.Low, 100*a.High, a.Basis)
		assert.Equal(t, benchstats.DefiniteRegression, res.Verdict)
		if assert.NotEmpty(t, res.Culprits) {
			assert.Equal(t, cmpfixture.Hot, res.Culprits[0].Function, "Hot leads the culprits")
		}
		for _, c := range res.Culprits[1:] {
			assert.Less(t, c.Share, 0.05, "run %d: %s holds %.1f%% of the movement: only Hot changed", i+1, c.Function, 100*c.Share)
		}
		assert.InDelta(t, truth, a.Estimate, 0.25*truth, "run %d: the estimate within 25%% of the truth", i+1)
		assert.LessOrEqual(t, a.Low, a.Estimate)
		assert.GreaterOrEqual(t, a.High, a.Estimate)
		low, high = append(low, a.Low), append(high, a.High)
		m := rep.AppMeasured
		if assert.NotNil(t, m, "run %d: the application was measured (notes %v)", i+1, rep.Notes) {
			e := m.Estimate
			t.Logf("run %d: measured %s %+.2f%% [%+.2f%%, %+.2f%%]", i+1, m.Source, 100*e.Change, 100*e.CI.Low, 100*e.CI.High)
			assert.Equal(t, "benchmark "+cmpfixture.Package+"."+cmpfixture.HotServe, m.Source)
			assert.GreaterOrEqual(t, e.Change, a.Low-(e.Change-e.CI.Low), "run %d: measured within the estimate's interval widened by its own", i+1)
			assert.LessOrEqual(t, e.Change, a.High+(e.CI.High-e.Change), "run %d: measured within the estimate's interval widened by its own", i+1)
		}
	}
	if len(low) == 2 {
		assert.True(t, low[0] <= high[1] && low[1] <= high[0], "the two runs' intervals [%v, %v] and [%v, %v] overlap", low[0], high[0], low[1], high[1])
	}
}

// culpritNames lists a result's culprits with their shares.
func culpritNames(res *compare.Result) []string {
	var out []string
	for _, c := range res.Culprits {
		out = append(out, fmt.Sprintf("%s %.0f%%", c.Function, 100*c.Share))
	}
	return out
}
