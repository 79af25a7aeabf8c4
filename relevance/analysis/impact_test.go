package analysis_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// The impacts of the example's benchmarks are the shares of the README's
// "Benchmarks by attributed impact" table, and their functions are the
// project functions each covers.
func TestImpactsExample(t *testing.T) {
	rep, err := analysis.Run(context.Background(), analysis.Config{
		App:     []string{"../../testdata/profiles/example/app.pprof"},
		Micro:   []string{"../../testdata/profiles/example/micro"},
		Modules: []string{"example.com/tinytsdb"},
	})
	require.NoError(t, err)
	im := analysis.Impacts(rep)
	require.Len(t, im, 19)
	for _, tc := range []struct {
		id               string
		attributed, flat float64 // percent, as the README prints them
		functions        int     // the table's project column
	}{
		{"httpapi__BenchmarkQueryHandler", 69.1, 74.9, 29},
		{"query__BenchmarkQuery", 63.7, 76.5, 32},
		{"storage__BenchmarkSearch", 2.5, 14.9, 5},
		{"storage__BenchmarkRetention", 0.0, 17.5, 0},
	} {
		t.Run(tc.id, func(t *testing.T) {
			got, ok := im[tc.id]
			require.True(t, ok, "no impact for %s", tc.id)
			assert.InDelta(t, tc.attributed, 100*got.Attributed, 0.05)
			assert.InDelta(t, tc.flat, 100*got.Flat, 0.05)
			assert.Len(t, got.Functions, tc.functions)
			assert.True(t, slices.IsSorted(got.Functions), "functions sorted by name")
			for _, f := range got.Functions {
				assert.True(t, strings.HasPrefix(f, "example.com/tinytsdb/"), "%s is not a project function", f)
			}
		})
	}
	s, ok := rep.Coverage.Index("query__BenchmarkQuery")
	require.True(t, ok)
	set := rep.Coverage.Sets[s]
	assert.Equal(t, set.AttributedImpactShare, im["query__BenchmarkQuery"].Attributed, "the same figure as the analysis, not a recomputation")
	assert.Equal(t, set.ImpactShare, im["query__BenchmarkQuery"].Flat)
}

// TestImpactsUnit: the impacts name the application profile's unit when
// it is not CPU time (an instruction profile of the application read
// with AllowNonCPU, which the comparison's reports then speak of), and
// none for a CPU profile; the shares are the same either way (an
// instruction a thousandth of a nanosecond, proftest.Instructions).
func TestImpactsUnit(t *testing.T) {
	instr := filepath.Join(t.TempDir(), "app.pprof")
	proftest.Instructions(t, exampleApp, instr)
	cpu, err := analysis.Run(context.Background(), analysis.Config{App: []string{exampleApp}, Micro: []string{exampleMicro}, Modules: []string{exampleModule}})
	require.NoError(t, err)
	want := analysis.Impacts(cpu)
	for _, tc := range []struct{ name, app, unit string }{
		{"instruction profile", instr, "instructions"},
		{"CPU profile", exampleApp, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{tc.app}, Micro: []string{exampleMicro}, Modules: []string{exampleModule}, AllowNonCPU: true})
			require.NoError(t, err)
			im := analysis.Impacts(rep)
			require.Len(t, im, len(want))
			for id, got := range im {
				assert.Equal(t, tc.unit, got.Unit, id)
				assert.InDelta(t, want[id].Attributed, got.Attributed, 1e-9, id)
				assert.InDelta(t, want[id].Flat, got.Flat, 1e-9, id)
			}
		})
	}
}

// With a collection manifest, benchmarks are keyed by package and name,
// the ids of compare's results.
func TestImpactsManifestIDs(t *testing.T) {
	dir, appPath, micro := figureDir(t)
	m := &manifest.Manifest{
		Version: manifest.SchemaVersion, Module: proftest.Figure62Module, BenchTime: "1s",
		Benchmarks: []manifest.Entry{
			{ID: "example.com/fig/app.BenchmarkOne/n=1", Package: "example.com/fig/app", Name: "BenchmarkOne/n=1", Status: manifest.StatusOK, Profile: "one.pprof"},
			{ID: "example.com/fig/app.BenchmarkTwo", Package: "example.com/fig/app", Name: "BenchmarkTwo", Status: manifest.StatusOK, Profile: "two.pprof"},
		},
	}
	require.NoError(t, m.Write(micro))
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{appPath}, Micro: []string{micro}, Dir: dir})
	require.NoError(t, err)
	im := analysis.Impacts(rep)
	var ids []string
	for id, v := range im {
		ids = append(ids, id)
		assert.NotEmpty(t, v.Functions, id)
		i, ok := rep.Coverage.Index(id)
		require.True(t, ok, id)
		assert.Equal(t, rep.Coverage.Sets[i].ImpactShare, v.Flat, id)
		assert.Equal(t, rep.Coverage.Sets[i].AttributedImpactShare, v.Attributed, id)
	}
	slices.Sort(ids)
	assert.Equal(t, []string{"example.com/fig/app.BenchmarkOne/n=1", "example.com/fig/app.BenchmarkTwo"}, ids)

	assert.Empty(t, analysis.Impacts(&analysis.Report{}), "no coverage, no impacts")
}
