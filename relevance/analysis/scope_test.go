package analysis_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/internal/opprof"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// runScoped runs the analysis of the application profile appPath (module
// Figure62Module) with the benchmark inputs micro. With wantErrors it
// checks that the run fails with an error holding each of them and returns
// nil; otherwise that it succeeds, and returns its report.
func runScoped(t *testing.T, appPath string, micro, wantErrors []string) *analysis.Report {
	t.Helper()
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{appPath}, Micro: micro,
		Modules: []string{proftest.Figure62Module}, Recommend: -1})
	if wantErrors != nil {
		require.Error(t, err)
		for _, w := range wantErrors {
			assert.Contains(t, err.Error(), w)
		}
		return nil
	}
	require.NoError(t, err)
	return rep
}

// coverCollection writes a cover collection of one benchmark, id, whose
// set holds the Figure 6.2 nodes ns, into a directory of its own.
func coverCollection(t *testing.T, id string, timed bool, ns ...int) string {
	t.Helper()
	dir := t.TempDir()
	file := id + ".funcs.json"
	writeSet(t, filepath.Join(dir, file), ns)
	s, err := covdata.ReadFile(filepath.Join(dir, file))
	require.NoError(t, err)
	s.Timed = timed
	f, err := os.Create(filepath.Join(dir, file))
	require.NoError(t, err)
	require.NoError(t, s.Write(f))
	require.NoError(t, f.Close())
	m := &manifest.Manifest{Module: proftest.Figure62Module, Source: manifest.SourceCover, Benchmarks: []manifest.Entry{
		{ID: id, Package: proftest.Figure62Module + "/app", Name: "Benchmark" + id, Status: manifest.StatusOK, Functions: file}}}
	if timed {
		m.Scope = manifest.ScopeTimed
	}
	require.NoError(t, m.Write(dir))
	return dir
}

// TestCaughtDefaultFunctionSets: measured MDEs make the caught objective
// the default, but function sets weigh no function, so the analysis of a
// cover collection keeps Algorithm 2; asked for by name, caught is an
// error that says so.
func TestCaughtDefaultFunctionSets(t *testing.T) {
	appPath, _ := figure62Files(t)
	micro := []string{coverCollection(t, "a", false, 1, 3), coverCollection(t, "b", false, 2, 4)}
	for _, tc := range []struct {
		objective string
		err       string
	}{{"", ""}, {"caught", "Config.Select.Objective caught: the benchmarks are function sets (source cover)"}} {
		cfg, err := analysis.Options{Nodes: "project", Impact: "attributed", Targets: "any", Edges: "sampled", Objective: tc.objective,
			App: []string{appPath}, Micro: micro, Modules: []string{proftest.Figure62Module}, MDEs: map[string]float64{"a": 0.01}}.Config(true)
		require.NoError(t, err)
		rep, err := analysis.Run(context.Background(), cfg)
		if tc.err != "" {
			assert.ErrorContains(t, err, tc.err)
			continue
		}
		require.NoError(t, err)
		assert.Nil(t, rep.Selection, "Algorithm 2")
		assert.Nil(t, rep.Caught)
		assert.NotEmpty(t, rep.Suite.Steps)
	}
}

// TestBenchmarkScope checks what the analysis says of the benchmarks'
// scope: timed when every function set is of a timed loop, nothing for
// sets of whole runs, and an error naming both files for a mix.
func TestBenchmarkScope(t *testing.T) {
	appPath, _ := figure62Files(t)
	collection := coverCollection
	for _, tc := range []struct {
		name       string
		timed      [2]bool
		want       manifest.Scope
		wantErrors []string
	}{
		{"whole runs", [2]bool{false, false}, "", nil},
		{"timed loops", [2]bool{true, true}, manifest.ScopeTimed, nil},
		{"mixed", [2]bool{true, false}, "", []string{"a.funcs.json is a function set of a timed loop", "b.funcs.json one of a whole run", "of one scope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			micro := []string{collection(t, "a", tc.timed[0], 1, 3), collection(t, "b", tc.timed[1], 2, 4)}
			rep := runScoped(t, appPath, micro, tc.wantErrors)
			if rep == nil {
				return
			}
			assert.Equal(t, tc.want, rep.Scope)
		})
	}
}

// TestInstructionProfiles checks that the instruction profiles of a
// collection with source instructions are read like CPU profiles (their
// sample type is instructions, no --allow-non-cpu needed), that the
// report says their source and, with scope timed, their scope, and that a
// mix with CPU profiles is refused, naming both files.
func TestInstructionProfiles(t *testing.T) {
	appPath, micro := figure62Files(t)
	// collection writes an instructions collection of one benchmark, id,
	// whose profile holds the Figure 6.2 nodes ns, 100 instructions each.
	collection := func(t *testing.T, id string, scope manifest.Scope, ns ...int) string {
		t.Helper()
		dir := t.TempDir()
		p := &opprof.Profile{Unit: "instructions", Type: "instructions"}
		for _, n := range ns {
			p.Samples = append(p.Samples, opprof.Sample{Function: proftest.Figure62Name(n), File: "app.go", Line: n, Value: 100})
		}
		file := id + ".pprof"
		f, err := os.Create(filepath.Join(dir, file))
		require.NoError(t, err)
		require.NoError(t, p.WritePprof(f))
		require.NoError(t, f.Close())
		m := &manifest.Manifest{Module: proftest.Figure62Module, Source: manifest.SourceInstructions, Scope: scope, Benchmarks: []manifest.Entry{
			{ID: id, Package: proftest.Figure62Module + "/app", Name: "Benchmark" + id, Status: manifest.StatusOK, Profile: file}}}
		require.NoError(t, m.Write(dir))
		return dir
	}
	for _, tc := range []struct {
		name       string
		micro      func(t *testing.T) []string
		scope      manifest.Scope
		wantErrors []string
	}{
		{"timed", func(t *testing.T) []string {
			return []string{collection(t, "a", manifest.ScopeTimed, 1, 3), collection(t, "b", manifest.ScopeTimed, 2, 4)}
		}, manifest.ScopeTimed, nil},
		{"all", func(t *testing.T) []string {
			return []string{collection(t, "a", manifest.ScopeAll, 1, 3), collection(t, "b", manifest.ScopeAll, 2, 4)}
		}, "", nil},
		{"mixed scopes", func(t *testing.T) []string {
			return []string{collection(t, "a", manifest.ScopeTimed, 1, 3), collection(t, "b", manifest.ScopeAll, 2, 4)}
		}, "", []string{"a.pprof is an instruction profile of a timed loop", "b.pprof one of a whole run"}},
		{"with CPU profiles", func(t *testing.T) []string {
			return []string{collection(t, "a", manifest.ScopeTimed, 1, 3), micro}
		}, "", []string{"a.pprof is an instruction profile (collected with source instructions)", "one.pprof a CPU profile", "of one collection source"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := runScoped(t, appPath, tc.micro(t), tc.wantErrors)
			if rep == nil {
				return
			}
			assert.Empty(t, rep.Skipped)
			assert.Equal(t, tc.scope, rep.Scope)
			assert.Equal(t, manifest.SourceInstructions, rep.Source)
			assert.Empty(t, rep.Thin, "instruction profiles are exact, never thin")
			assert.Equal(t, 4, rep.Coverage.Project.Covered, "F1 to F4")
		})
	}
}
