package analysis_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

func exclusionNote(t *testing.T, rep *analysis.Report) *analysis.ExclusionNote {
	t.Helper()
	for _, w := range rep.Warnings {
		var n *analysis.ExclusionNote
		if errors.As(w, &n) {
			assert.True(t, analysis.IsNote(w))
			return n
		}
	}
	return nil
}

// On the example: leaving out the benchmark Algorithm 2 picks first makes
// the suite pick others in its place at the same project coverage; leaving
// out the only benchmark of a function costs that function.
func TestExcludeBenchmarksOnTheExample(t *testing.T) {
	cfg := analysis.Config{
		App:     []string{"../../testdata/profiles/example/app.pprof"},
		Micro:   []string{"../../testdata/profiles/example/micro"},
		Modules: []string{"example.com/tinytsdb"},
	}
	base, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Nil(t, exclusionNote(t, base))
	first := base.Suite.Steps[0].ID

	cfg.Select.ExcludeBenchmarks = []string{first, "example.com/tinytsdb/nope.BenchmarkNope"}
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	n := exclusionNote(t, rep)
	require.NotNil(t, n)
	assert.Equal(t, []string{first}, n.Excluded)
	assert.Equal(t, []string{"example.com/tinytsdb/nope.BenchmarkNope"}, n.Unmatched)
	assert.Equal(t, base.Coverage.Project, n.FullProject)
	assert.NotContains(t, rep.Suite.IDs(), first)
	last := rep.Suite.Steps[len(rep.Suite.Steps)-1]
	assert.Equal(t, n.Project, last.CumulativeProject, "the suite reaches what the others cover")
	assert.Equal(t, len(n.Lost), n.FullProject.Covered-n.Project.Covered)

	// With the impact objective and a top, the exclusion holds as well.
	cfg.Select.Objective, cfg.Select.Top = optimize.Impact, 2
	rep, err = analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.NotContains(t, rep.Suite.IDs(), first)
}

// A manifest's benchmarks are matched by their import path + full name as
// well, the ids package compare and the history use.
func TestExcludeBenchmarksByPackageID(t *testing.T) {
	dir, appPath, micro := figureDir(t)
	m := &manifest.Manifest{Version: manifest.SchemaVersion, Module: proftest.Figure62Module, BenchTime: "1s",
		Benchmarks: []manifest.Entry{
			{ID: "one", Package: "example.com/fig/app", Name: "BenchmarkOne", Status: manifest.StatusOK, Profile: "one.pprof"},
			{ID: "two", Package: "example.com/fig/app", Name: "BenchmarkTwo", Status: manifest.StatusOK, Profile: "two.pprof"},
		}}
	require.NoError(t, m.Write(micro))
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{appPath}, Micro: []string{micro}, Dir: dir, Certify: true,
		Select: analysis.SelectConfig{ExcludeBenchmarks: []string{"example.com/fig/app.BenchmarkTwo"}}})
	require.NoError(t, err)
	n := exclusionNote(t, rep)
	require.NotNil(t, n)
	assert.Equal(t, []string{"two"}, n.Excluded)
	assert.Equal(t, []string{"one"}, rep.Suite.IDs())
	assert.Nil(t, rep.Certificate, "no certificate for a suite that cannot reach the whole coverage")
	assert.Contains(t, n.Error(), "Config.Select.ExcludeBenchmarks left out 1 of the benchmarks (two): the suite can cover ")
}
