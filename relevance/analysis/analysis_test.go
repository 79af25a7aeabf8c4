package analysis_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// A directory with a collection manifest contributes its benchmarks under
// their manifest ids; entries that did not succeed become skips carrying
// their status, and the module comes from the manifest.
func TestRunReadsManifest(t *testing.T) {
	dir, appPath, micro := figureDir(t)
	_, _, b2 := proftest.Figure62()
	proftest.WriteFile(t, filepath.Join(micro, "stray.pprof"), b2) // not in the manifest: ignored
	m := &manifest.Manifest{
		Version: manifest.SchemaVersion, Module: proftest.Figure62Module, BenchTime: "1s",
		Benchmarks: []manifest.Entry{
			{ID: "example.com/fig/app.BenchmarkOne", Package: "example.com/fig/app", Name: "BenchmarkOne", Status: manifest.StatusOK, Profile: "one.pprof"},
			{ID: "example.com/fig/app.BenchmarkPanics", Package: "example.com/fig/app", Name: "BenchmarkPanics", Status: manifest.StatusFailed, Error: "panic: boom\ngoroutine 1", Log: "logs/panics.log"},
			{ID: "example.com/fig/app.BenchmarkTwo", Package: "example.com/fig/app", Name: "BenchmarkTwo", Status: manifest.StatusOK, Profile: "two.pprof"},
		},
	}
	require.NoError(t, m.Write(micro))

	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{appPath}, Micro: []string{micro}, Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, []string{proftest.Figure62Module}, rep.Modules, "module from the manifest")
	assert.Equal(t, 5, rep.Coverage.Project.Covered)
	assert.Equal(t, 6, rep.Coverage.Overall.Covered)
	require.Len(t, rep.Coverage.Sets, 2)
	assert.Equal(t, "example.com/fig/app.BenchmarkOne", rep.Coverage.Sets[0].ID)
	require.Len(t, rep.Skipped, 1)
	assert.Equal(t, "example.com/fig/app.BenchmarkPanics", rep.Skipped[0].ID)
	assert.Equal(t, "failed: panic: boom", rep.Skipped[0].Reason)
	assert.Equal(t, filepath.Join(micro, "logs/panics.log"), rep.Skipped[0].File)
	assert.Equal(t, "BenchmarkTwo", rep.Entries["example.com/fig/app.BenchmarkTwo"].Name)

	_, err = analysis.Run(context.Background(), analysis.Config{App: []string{appPath}, Micro: []string{micro}, Strict: true})
	assert.True(t, errors.Is(err, mbopt.ErrInput))
	var fe *mbopt.Error
	require.ErrorAs(t, err, &fe, "a setting can fix it")
	assert.Equal(t, []mbopt.Field{"Strict"}, fe.Fields())
	assert.ErrorContains(t, err, "Config.Strict makes every unusable benchmark profile an error")
	var skip *analysis.Skip
	require.ErrorAs(t, err, &skip, "the first skip is the cause")
	assert.Equal(t, "example.com/fig/app.BenchmarkPanics", skip.ID)
	flag := func(f mbopt.Field) string { return "--" + strings.ToLower(string(f)) }
	assert.Equal(t, filepath.Join(micro, "logs/panics.log")+": failed: panic: boom (--strict makes every unusable benchmark profile an error)", fe.Text(flag))
}

func TestRunFindsModuleInGoMod(t *testing.T) {
	app, b1, _ := proftest.Figure62()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+proftest.Figure62Module+"\n\ngo 1.24\n"), 0o644))
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	proftest.WriteFile(t, filepath.Join(dir, "app.pprof"), app)
	proftest.WriteFile(t, filepath.Join(dir, "b1.pprof"), b1)
	rep, err := analysis.Run(context.Background(), analysis.Config{
		App: []string{filepath.Join(dir, "app.pprof")}, Micro: []string{filepath.Join(dir, "b1.pprof")}, Dir: sub,
	})
	require.NoError(t, err)
	assert.Equal(t, []string{proftest.Figure62Module}, rep.Modules)
	assert.Equal(t, 2, rep.Coverage.Project.Covered)
	require.Len(t, rep.Warnings, 3, "the module, then the Figure 6.2 fixture's thin application (9 samples) and benchmark (1) profiles")
	var w *analysis.ModuleFromGoModWarning
	require.ErrorAs(t, rep.Warnings[0], &w)
	assert.Equal(t, analysis.ModuleFromGoModWarning{Module: proftest.Figure62Module, GoMod: filepath.Join(dir, "go.mod")}, *w)
	assert.EqualError(t, w, "project module "+proftest.Figure62Module+" taken from "+filepath.Join(dir, "go.mod")+"; use Config.Modules to choose another")
}

func TestRunRejectsDuplicateIDs(t *testing.T) {
	app, b1, _ := proftest.Figure62()
	dir := t.TempDir()
	proftest.WriteFile(t, filepath.Join(dir, "app.pprof"), app)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "a"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "b"), 0o755))
	proftest.WriteFile(t, filepath.Join(dir, "a", "x.pprof"), b1)
	proftest.WriteFile(t, filepath.Join(dir, "b", "x.pprof"), b1)
	_, err := analysis.Run(context.Background(), analysis.Config{
		App: []string{filepath.Join(dir, "app.pprof")}, Micro: []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")}, Modules: []string{"m"},
	})
	assert.True(t, errors.Is(err, mbopt.ErrInput))
	assert.ErrorContains(t, err, `benchmark id "x" is given twice`)
}

// TestRunImpact: Config.Impact reaches the report, and an unknown kind is
// an mbopt.Error naming Impact.
func TestRunImpact(t *testing.T) {
	app, b1, b2 := proftest.Figure62()
	dir := t.TempDir()
	proftest.WriteFile(t, filepath.Join(dir, "app.pprof"), app)
	proftest.WriteFile(t, filepath.Join(dir, "b1.pprof"), b1)
	proftest.WriteFile(t, filepath.Join(dir, "b2.pprof"), b2)
	cfg := analysis.Config{
		App: []string{filepath.Join(dir, "app.pprof")}, Micro: []string{filepath.Join(dir, "b1.pprof"), filepath.Join(dir, "b2.pprof")},
		Modules: []string{proftest.Figure62Module},
	}
	for _, kind := range []coverage.ImpactKind{coverage.AttributedImpact, coverage.FlatImpact} {
		cfg.Impact = kind
		rep, err := analysis.Run(context.Background(), cfg)
		require.NoError(t, err)
		assert.Equal(t, kind, rep.Impact)
	}
	cfg.Impact = 3
	_, err := analysis.Run(context.Background(), cfg)
	var fe *mbopt.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, []mbopt.Field{"Impact"}, fe.Fields())
	assert.ErrorContains(t, err, "Config.Impact must be coverage.AttributedImpact or coverage.FlatImpact, not 3")
}
