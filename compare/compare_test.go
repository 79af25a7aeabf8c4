package compare_test

import (
	"context"
	"testing"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/internal/cmpfixture"
)

// quick are short settings for tests that are not about the schedule.
func quick(seed uint64) compare.Settings {
	return compare.Settings{Trials: 3, Runs: 2, Count: 3, BenchTime: "10ms", Seed: seed, Resamples: 2000}
}

func verdicts(rep *compare.Report) map[string]benchstats.Verdict {
	m := map[string]benchstats.Verdict{}
	for _, r := range rep.Results {
		if r.Unit == "sec/op" && r.Status == compare.Compared {
			m[r.Name] = r.Verdict
		}
	}
	return m
}

func TestFixtureVerdicts(t *testing.T) {
	dir := cmpfixture.Repo(t, cmpfixture.Variant{})
	cache := t.TempDir()
	for _, seed := range []uint64{1, 2, 3} {
		rep, err := compare.Run(context.Background(), compare.Options{Dir: dir, Settings: quick(seed), CacheDir: cache, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		v := verdicts(rep)
		if v[cmpfixture.Slower] != benchstats.DefiniteRegression || v[cmpfixture.Faster] != benchstats.DefiniteImprovement || v[cmpfixture.Same].Definite() {
			t.Errorf("seed %d: verdicts %v; want %s definite-regression, %s definite-improvement, %s not definite\nresults: %+v",
				seed, v, cmpfixture.Slower, cmpfixture.Faster, cmpfixture.Same, rep.Results)
		}
		for _, r := range rep.Results {
			if r.Unit == "sec/op" {
				t.Logf("seed %d %s %+.1f%% [%+.1f%%, %+.1f%%] %s", seed, r.Name, 100*r.Estimate.Change, 100*r.Estimate.CI.Low, 100*r.Estimate.CI.High, r.Verdict)
			}
		}
		if got := len(rep.Gate(compare.FailOnDefiniteRegression)); got != 1 {
			t.Errorf("seed %d: %d results fail the default gate, want 1", seed, got)
		}
		if rep.Base.Commit == "" || rep.Head.Commit == "" || rep.Base.Commit == rep.Head.Commit || len(rep.Notes) == 0 {
			t.Errorf("seed %d: revisions %+v %+v notes %q", seed, rep.Base, rep.Head, rep.Notes)
		}
	}
}
