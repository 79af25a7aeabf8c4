package analysis_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/suite"
)

// driftReport is an application of four project functions (q.P, q.E, q.F,
// q.G) and profiles of BenchmarkA (P, E), BenchmarkSub/x (F), BenchmarkSub/y
// (G) and BenchmarkIdle (only the runtime), named by manifest entries.
func driftReport() *analysis.Report {
	graph := func(names ...string) *callgraph.Graph {
		g := &callgraph.Graph{Unit: "seconds"}
		for _, n := range names {
			g.Nodes = append(g.Nodes, callgraph.Node{Name: n, Package: callgraph.PackageOf(n), Project: n != "runtime.x", Flat: 1})
			g.Total++
		}
		return g
	}
	app := graph("m/q.E", "m/q.F", "m/q.G", "m/q.P")
	cov := coverage.Compute(app, []coverage.Benchmark{
		{ID: "a", Graph: graph("m/q.P", "m/q.E")},
		{ID: "sx", Graph: graph("m/q.F")},
		{ID: "sy", Graph: graph("m/q.G")},
		{ID: "idle", Graph: graph("runtime.x")},
	})
	entry := func(id, name string) manifest.Entry {
		return manifest.Entry{ID: id, Package: "m/q", Name: name, Status: manifest.StatusOK}
	}
	return &analysis.Report{Coverage: cov, Entries: map[string]manifest.Entry{
		"a": entry("a", "BenchmarkA"), "sx": entry("sx", "BenchmarkSub/x"), "sy": entry("sy", "BenchmarkSub/y"), "idle": entry("idle", "BenchmarkIdle"),
	}}
}

func TestCheckDrift(t *testing.T) {
	q := func(names ...string) []suite.Benchmark {
		var out []suite.Benchmark
		for _, n := range names {
			out = append(out, suite.Benchmark{Package: "m/q", Name: n})
		}
		return out
	}
	all := map[string][]string{"m/q": {"BenchmarkA", "BenchmarkIdle", "BenchmarkSub"}}
	tests := []struct {
		name     string
		cfg      analysis.DriftConfig
		want     []string // kind benchmark
		covered  int      // -1: no coverage
		messages []string // substrings of the messages, in order
	}{
		{name: "no drift, sub-benchmarks by their top-level function",
			cfg:     analysis.DriftConfig{Suite: q("BenchmarkA", "BenchmarkSub/x"), Declared: all, Report: driftReport()},
			covered: 3},
		{name: "a top-level suite benchmark profiled per sub-benchmark",
			cfg:     analysis.DriftConfig{Suite: q("BenchmarkSub"), Declared: all, Report: driftReport()},
			covered: 2},
		{name: "missing without profiles",
			cfg:      analysis.DriftConfig{Suite: q("BenchmarkA", "BenchmarkGone/n=1"), Declared: all},
			want:     []string{"missing BenchmarkGone/n=1"},
			covered:  -1,
			messages: []string{"m/q BenchmarkGone/n=1: BenchmarkGone is no longer declared (removed or renamed); rebuild the suite"}},
		{name: "package gone",
			cfg:      analysis.DriftConfig{Suite: []suite.Benchmark{{Package: "m/old", Name: "BenchmarkA"}}, Declared: all},
			want:     []string{"missing BenchmarkA"},
			covered:  -1,
			messages: []string{"package m/old declares no benchmarks now"}},
		{name: "unprofiled and no profile",
			cfg: analysis.DriftConfig{Suite: q("BenchmarkA", "BenchmarkNew"), Report: driftReport(),
				Declared: map[string][]string{"m/q": {"BenchmarkA", "BenchmarkIdle", "BenchmarkNew", "BenchmarkSub"}}},
			want:     []string{"unprofiled BenchmarkNew", "no_profile BenchmarkNew"},
			covered:  2,
			messages: []string{"declared but not in the profiles", "in the suite but without a profile"}},
		{name: "no coverage",
			cfg:      analysis.DriftConfig{Suite: q("BenchmarkA", "BenchmarkIdle"), Declared: all, Report: driftReport()},
			want:     []string{"no_coverage BenchmarkIdle"},
			covered:  2,
			messages: []string{"m/q BenchmarkIdle: covers no function of the application any more"}},
		{name: "low coverage",
			cfg:      analysis.DriftConfig{Suite: q("BenchmarkA"), Declared: all, Report: driftReport(), MinCoverage: 0.6},
			want:     []string{"low_coverage "},
			covered:  2,
			messages: []string{"the suite covers 2 of 4 project functions of the application (50.0%), below the minimum 60.0%; all profiled benchmarks cover 100.0%"}},
		{name: "coverage at the minimum",
			cfg:     analysis.DriftConfig{Suite: q("BenchmarkA"), Declared: all, Report: driftReport(), MinCoverage: 0.5},
			covered: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := analysis.CheckDrift(tt.cfg)
			require.NoError(t, err)
			var got, msgs []string
			for _, f := range d.Findings {
				got = append(got, string(f.Kind)+" "+f.Benchmark)
				msgs = append(msgs, f.Message)
			}
			assert.Equal(t, tt.want, got)
			for i, m := range tt.messages {
				assert.Contains(t, msgs[i], m)
			}
			if tt.covered < 0 {
				assert.Nil(t, d.Coverage)
			} else if assert.NotNil(t, d.Coverage) {
				assert.Equal(t, tt.covered, d.Coverage.Covered)
			}
		})
	}
}

func TestCheckDriftErrors(t *testing.T) {
	for _, cfg := range []analysis.DriftConfig{{MinCoverage: 1.5}, {MinCoverage: -0.1}, {MinCoverage: 0.5}} {
		_, err := analysis.CheckDrift(cfg)
		if assert.Error(t, err) {
			assert.ErrorIs(t, err, mbopt.ErrInput)
			assert.Contains(t, err.Error(), "MinCoverage")
		}
	}
}
