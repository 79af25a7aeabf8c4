package analysis_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/testkit/proftest"
)

func TestCheckModules(t *testing.T) {
	tests := []struct {
		mods   []string
		index  int    // -1: valid
		reason string // a substring of the reason
	}{
		{[]string{"example.com/m"}, -1, ""},
		{[]string{"example.com/m/storage", "main", "gopkg.in/yaml.v3", "github.com/x/y/v2"}, -1, ""},
		{[]string{""}, 0, "empty"},
		{[]string{"/"}, 0, "starts with a slash"},
		{[]string{"/home/me/m"}, 0, "starts with a slash"},
		{[]string{"example.com/m/"}, 0, "ends with a slash"},
		{[]string{" "}, 0, "white space"},
		{[]string{"example.com/m", "example.com/ m"}, 1, "white space"},
		{[]string{"example.com//m"}, 0, "double slash"},
		{[]string{"example.com/../m"}, 0, "invalid path element"},
		{[]string{"exa*mple.com"}, 0, "invalid char"},
	}
	for _, tt := range tests {
		err := analysis.CheckModules(tt.mods)
		if tt.index < 0 {
			assert.NoError(t, err, "%q", tt.mods)
			continue
		}
		var ie *mbopt.Error
		require.ErrorAs(t, err, &ie, "%q", tt.mods)
		assert.Equal(t, []mbopt.Field{"Modules"}, ie.Fields())
		assert.Contains(t, err.Error(), fmt.Sprintf("Config.Modules %q: ", tt.mods[tt.index]), "names the bad entry")
		assert.Contains(t, err.Error(), tt.reason)
		assert.ErrorIs(t, err, mbopt.ErrInput)
	}
}

func TestModuleCandidates(t *testing.T) {
	p := proftest.Profile(
		proftest.Stack{Frames: []string{"main.main", "github.com/a/b/pkg.Run", "runtime.mallocgc"}, Nanos: 60e6},
		proftest.Stack{Frames: []string{"main.main", "golang.org/x/net/http2.(*Framer).Read"}, Nanos: 30e6},
		proftest.Stack{Frames: []string{"go.uber.org/zap/zapcore.Write"}, Nanos: 10e6},
		proftest.Stack{Frames: []string{"example.com/m/storage.Add"}, Nanos: 10e6},
		proftest.Stack{Frames: []string{"fmt.Sprintf"}, Nanos: 5e6},
	)
	g, err := callgraph.New(p, callgraph.Options{})
	require.NoError(t, err)
	got := analysis.ModuleCandidates(g, 4)
	var paths []string
	for _, c := range got {
		paths = append(paths, c.Path)
	}
	// By largest cumulative time, ties by path; no standard library.
	assert.Equal(t, []string{"main", "github.com/a/b", "golang.org/x/net", "example.com/m"}, paths)
	assert.InDelta(t, 0.09, got[0].Seconds, 1e-9)
	assert.InDelta(t, 90.0/115, got[0].Share, 1e-9)
}

func TestRunNoProjectFunctions(t *testing.T) {
	app, b1, _ := proftest.Figure62()
	dir := t.TempDir()
	appPath := filepath.Join(dir, "app.pprof")
	proftest.WriteFile(t, appPath, app)
	proftest.WriteFile(t, filepath.Join(dir, "b1.pprof"), b1)
	cfg := analysis.Config{App: []string{appPath}, Micro: []string{filepath.Join(dir, "b1.pprof")}, Modules: []string{"example.com/wrong"}}
	_, err := analysis.Run(context.Background(), cfg)
	var np *analysis.NoProjectFunctionsError
	require.ErrorAs(t, err, &np)
	assert.True(t, errors.Is(err, analysis.ErrNoProjectFunctions) && errors.Is(err, mbopt.ErrInput))
	assert.Equal(t, "Config.Modules", np.From)
	require.NotEmpty(t, np.Candidates)
	assert.Equal(t, proftest.Figure62Module, np.Candidates[0].Path)
	assert.ErrorContains(t, err, appPath+": no function of the application profile belongs to example.com/wrong (Config.Modules)")

	cfg.AllowNoProject = true
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, 0, rep.Coverage.Project.Total)
	var w *analysis.NoProjectFunctionWarning
	require.True(t, slices.ContainsFunc(rep.Warnings, func(e error) bool { return errors.As(e, &w) }),
		"among the warnings (the Figure 6.2 fixture's thin profiles add theirs)")
	assert.Contains(t, w.Error(), "project-only figures are empty")
}

// A workload that never ran the project's code (a benchmark filter that
// matched nothing, say) leaves a profile of a few runtime samples: the
// error counts them and names that cause beside a wrong module.
func TestRunNoProjectFunctionsRuntimeOnly(t *testing.T) {
	_, b1, _ := proftest.Figure62()
	dir := t.TempDir()
	appPath := filepath.Join(dir, "app.pprof")
	proftest.WriteFile(t, appPath, proftest.Profile(
		proftest.Stack{Frames: []string{"runtime.mcall", "runtime.gosched_m", "runtime.unlock2"}, Nanos: 10e6},
	))
	proftest.WriteFile(t, filepath.Join(dir, "b1.pprof"), b1)
	cfg := analysis.Config{App: []string{appPath}, Micro: []string{filepath.Join(dir, "b1.pprof")}, Modules: []string{proftest.Figure62Module}}
	_, err := analysis.Run(context.Background(), cfg)
	var np *analysis.NoProjectFunctionsError
	require.ErrorAs(t, err, &np)
	assert.Empty(t, np.Candidates)
	assert.Equal(t, int64(1), np.Samples)
	assert.ErrorContains(t, err, "it names no module-like package in its 1 sample (0.01 seconds): is it unsymbolized, of another program, or of a workload that did not run the project's code?")
}
