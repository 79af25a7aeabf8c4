package compare_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
)

// culpritSettings is a short schedule with the 8 measurements per version
// a verdict at 99% needs.
func culpritSettings(m measure.Metric) compare.Settings {
	s := compare.Settings{Trials: 2, Runs: 2, Count: 2, Resamples: 2000, Seed: 1, Metric: m}
	if m == measure.Time {
		s.BenchTime = "20ms"
	}
	return s
}

// resultOf returns the result of benchmark name in the metric's unit.
func resultOf(t *testing.T, rep *compare.Report, name string, m measure.Metric) compare.Result {
	t.Helper()
	unit := m.Unit()
	if m == "" {
		unit = measure.Time.Unit()
	}
	res, ok := byUnit(rep, unit)[name]
	require.True(t, ok, "no %s result of %s: %+v", unit, name, rep.Results)
	return res
}

// pprofTop returns the first function of go tool pprof -top's table.
func pprofTop(t *testing.T, args ...string) (string, string) {
	t.Helper()
	out, err := exec.Command("go", append([]string{"tool", "pprof", "-top"}, args...)...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	rows := false
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if rows && len(f) >= 6 {
			return strings.Join(f[5:], " "), string(out)
		}
		if len(f) > 0 && f[0] == "flat" {
			rows = true
		}
	}
	return "", string(out)
}

// TestCulprits is issue 22's evidence, on a repository of eight commits
// where c6 doubles the work of a helper the compiler inlines and the
// others change comments only, with the application's reference profile
// (a CPU profile of its request, Serve, where the helper takes about 40%):
//
//   - compare c5..c6 finds the change with every metric, ranks the helper
//     first among its culprits, and writes two profiles whose go tool
//     pprof -diff_base shows the helper first too;
//   - the estimated application impact (instructions) lies within the
//     interval of the application workload measured directly at both
//     commits (cpu);
//   - a change in a function the application does not run (Check, tag
//     unused) is a detection marked likely no application impact.
func TestCulprits(t *testing.T) {
	if testing.Short() {
		t.Skip("five comparisons, two under Valgrind; skipped with -short")
	}
	dir, _ := cmpfixture.HelperRepo(t, cmpfixture.HelperVariant{})
	cache := t.TempDir()
	app := appProfile(t, dir, "c5")
	shares := app.Shares
	t.Logf("the application's reference profile: helper %.1f%%, Work %.1f%%, respond %.1f%%", 100*shares[cmpfixture.Helper],
		100*shares[cmpfixture.Package+".Work"], 100*shares[cmpfixture.Package+".respond"])
	require.InDelta(t, 0.4, shares[cmpfixture.Helper], 0.1, "the application spends about 40%% in the helper")
	run := func(t *testing.T, base, head, bench string, m measure.Metric) (*compare.Report, compare.Result) {
		t.Helper()
		rep, err := compare.Run(context.Background(), compare.Options{Dir: dir, Base: base, Head: head, Bench: "^" + bench + "$",
			Settings: culpritSettings(m), CacheDir: cache, Relevance: compare.Relevance{Application: app}})
		require.NoError(t, err)
		return rep, resultOf(t, rep, bench, m)
	}

	var estimate *culprit.AppImpact
	for _, m := range []measure.Metric{measure.Time, measure.CPU, measure.Instructions} {
		t.Run(string(m), func(t *testing.T) {
			if m == measure.Instructions {
				needValgrind(t)
			}
			rep, res := run(t, "c5", "c6", cmpfixture.Work, m)
			t.Logf("%s: %+.1f%% [%+.1f%%, %+.1f%%] %s", m, 100*res.Estimate.Change, 100*res.Estimate.CI.Low, 100*res.Estimate.CI.High, res.Verdict)
			for _, c := range res.Culprits[:min(3, len(res.Culprits))] {
				t.Logf("  %s %.0f → %.0f (%.0f%% of the change)", c.Function, c.Base, c.Head, 100*c.Share)
			}
			assert.Equal(t, benchstats.DefiniteRegression, res.Verdict)
			require.NotEmpty(t, res.Culprits)
			assert.Equal(t, cmpfixture.Helper, res.Culprits[0].Function)
			assert.Greater(t, res.Culprits[0].Share, 0.5, "the helper holds most of the change")
			assert.True(t, res.Culprits[0].InApp)
			require.NotNil(t, res.AppImpact)
			if m == measure.Instructions {
				estimate = res.AppImpact
			}
			require.NotNil(t, res.Profiles)
			for _, p := range []string{res.Profiles.Base, res.Profiles.Head} {
				assert.True(t, filepath.IsAbs(p), p)
				assert.Equal(t, filepath.Join(rep.Out, compare.CulpritDir), filepath.Dir(p), "kept in the output directory")
				_, err := os.Stat(p)
				require.NoError(t, err)
			}
			top, out := pprofTop(t, "-diff_base", res.Profiles.Base, res.Profiles.Head)
			t.Logf("go tool pprof -top -diff_base:\n%s", out)
			assert.Equal(t, cmpfixture.Helper, top)
		})
	}
	if estimate == nil {
		return // no valgrind
	}
	t.Run("application impact", func(t *testing.T) {
		// The application workload, measured directly.
		_, direct := run(t, "c5", "c6", cmpfixture.Serve, measure.CPU)
		t.Logf("estimated application impact %+.1f%% [%+.1f%%, %+.1f%%], relevant share %.2f; measured directly %+.1f%% [%+.1f%%, %+.1f%%]",
			100*estimate.Estimate, 100*estimate.Low, 100*estimate.High, estimate.RelevantShare,
			100*direct.Estimate.Change, 100*direct.Estimate.CI.Low, 100*direct.Estimate.CI.High)
		assert.False(t, estimate.NoImpact)
		// The reference profile's shares are sampled (some 400
		// samples): a few points either side of the direct interval are
		// their error.
		assert.GreaterOrEqual(t, estimate.Estimate, direct.Estimate.CI.Low-0.03)
		assert.LessOrEqual(t, estimate.Estimate, direct.Estimate.CI.High+0.03)
	})
	t.Run("outside the application", func(t *testing.T) {
		_, unused := run(t, "c1", "unused", cmpfixture.Work, measure.Instructions)
		require.NotNil(t, unused.AppImpact)
		t.Logf("Check doubled: %+.1f%% %s, culprit %s, application impact %+.2f%%, relevant share %.2f, likely no application impact %v",
			100*unused.Estimate.Change, unused.Verdict, unused.Culprits[0].Function, 100*unused.AppImpact.Estimate, unused.AppImpact.RelevantShare, unused.AppImpact.NoImpact)
		assert.Equal(t, benchstats.DefiniteRegression, unused.Verdict)
		assert.Equal(t, cmpfixture.Check, unused.Culprits[0].Function)
		assert.False(t, unused.Culprits[0].InApp)
		assert.True(t, unused.AppImpact.NoImpact, "likely no application impact")
		assert.InDelta(t, 0, unused.AppImpact.Estimate, 0.001, "no application function changed")
		assert.InDelta(t, 0, unused.AppImpact.Low, 0.001)
		assert.InDelta(t, 0, unused.AppImpact.High, 0.001)
	})
	t.Run("A/A", func(t *testing.T) {
		// Code-identical versions, explained on request: the runtime's
		// counts move, but none beyond its noise.
		rep, err := compare.Run(context.Background(), compare.Options{Dir: dir, Head: "c5", AA: true, Bench: "^" + cmpfixture.Work + "$",
			Settings: culpritSettings(measure.Instructions), CacheDir: cache, Relevance: compare.Relevance{Application: app}, Explain: []string{cmpfixture.Work}})
		require.NoError(t, err)
		aa := resultOf(t, rep, cmpfixture.Work, measure.Instructions)
		require.NotNil(t, aa.Explained, "explained on request")
		t.Logf("A/A: %+.3f%%, %d functions tested, %d within their noise, culprits %v", 100*aa.Estimate.Change, aa.Explained.Tested, aa.Explained.Noise, aa.Culprits)
		assert.Empty(t, aa.Culprits, "no function changed")
		require.NotNil(t, aa.AppImpact)
		assert.InDelta(t, 0, aa.AppImpact.Estimate, 0.001)
		assert.InDelta(t, 0, aa.AppImpact.Low, 0.001)
		assert.InDelta(t, 0, aa.AppImpact.High, 0.001)
	})
}

// appProfile builds the fixture's test binary at rev, profiles the
// application's request (BenchmarkServe, about 11 µs of CPU per
// operation) for about 4 s of CPU, some 400 samples at 100 Hz, and
// returns it as the comparison weighs changes by: each function's flat
// share, split by caller.
func appProfile(t *testing.T, dir, rev string) *callgraph.Application {
	t.Helper()
	wt := filepath.Join(t.TempDir(), "app")
	for _, args := range [][]string{{"worktree", "add", "-q", "--detach", wt, rev}} {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	t.Cleanup(func() { exec.Command("git", "-C", dir, "worktree", "remove", "--force", wt).Run() })
	bin := filepath.Join(t.TempDir(), "app.test")
	build := exec.Command("go", "test", "-c", "-o", bin, "./work")
	build.Dir = wt
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	path := filepath.Join(t.TempDir(), "app.pprof")
	_, err = measure.CPUProfile(context.Background(), measure.Options{Binary: bin, Dir: filepath.Join(wt, "work"), Name: cmpfixture.Serve, Env: os.Environ(), N1: 2, N2: 400000}, path)
	require.NoError(t, err)
	g, err := callgraph.Load([]string{path}, callgraph.Options{Modules: []string{cmpfixture.Module}})
	require.NoError(t, err)
	t.Logf("the application's reference profile: %.2f s of CPU", g.Total)
	app := &callgraph.Application{Shares: g.FlatShares(), Callers: map[string]map[string]float64{}, Samples: g.SamplesTaken}
	for leaf, callers := range g.FlatCallers {
		app.Callers[leaf] = map[string]float64{}
		for c, v := range callers {
			app.Callers[leaf][c] = v / g.Total
		}
	}
	return app
}
