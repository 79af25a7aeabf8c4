package analysis_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// writeSet writes a function set of package example.com/fig/app holding
// the Figure 6.2 nodes ns, and extra names.
func writeSet(t *testing.T, path string, ns []int, extra ...string) {
	t.Helper()
	set := &covdata.Set{Packages: []string{proftest.Figure62Module + "/app"}}
	for _, n := range ns {
		set.Funcs = append(set.Funcs, covdata.Func{Name: proftest.Figure62Name(n)})
	}
	for _, e := range extra {
		set.Funcs = append(set.Funcs, covdata.Func{Name: e})
	}
	slices.SortFunc(set.Funcs, func(a, b covdata.Func) int { return strings.Compare(a.Name, b.Name) })
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, set.Write(f))
	require.NoError(t, f.Close())
}

// The hybrid graph: the coverage run saw every project function the
// profile sampled but F5, plus F20, which sampling missed; F20 becomes a
// project node without time, F5 stays (the profile proves it ran), and
// both are listed.
func TestHybridApplication(t *testing.T) {
	appPath, micro := figure62Files(t)
	setPath := filepath.Join(t.TempDir(), "app.cover.json")
	f20 := proftest.Figure62Module + "/app.F20"
	writeSet(t, setPath, []int{1, 2, 3, 4, 6, 7, 8, 14, 17}, f20)
	cfg := analysis.Config{App: []string{appPath}, Micro: []string{micro}, Modules: []string{proftest.Figure62Module}, Recommend: -1}

	plain, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	assert.Nil(t, plain.Hybrid)
	assert.Equal(t, 10, plain.Coverage.Project.Total)

	cfg.AppFunctions = []string{setPath}
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	h := rep.Hybrid
	require.NotNil(t, h)
	assert.Equal(t, []string{proftest.Figure62Module + "/app"}, h.Packages)
	assert.Equal(t, 10, h.Functions)
	assert.Equal(t, []string{f20}, h.CoverOnly)
	assert.Equal(t, []string{proftest.Figure62Name(5)}, h.ProfileOnly)
	assert.Equal(t, 10, h.ProfileProject)
	assert.Equal(t, 11, h.HybridProject)
	assert.Equal(t, 11, rep.Coverage.Project.Total)
	assert.Equal(t, plain.Coverage.Project.Covered, rep.Coverage.Project.Covered)
	id, ok := rep.Coverage.App.Lookup(f20)
	require.True(t, ok)
	n := rep.Coverage.App.Nodes[id]
	assert.True(t, n.Project)
	assert.Zero(t, n.Flat)
	assert.Equal(t, plain.Coverage.App.Total, rep.Coverage.App.Total, "times come from the profile")
	// Edges survive the renumbering: F1 still calls F3.
	f1, _ := rep.Coverage.App.Lookup(proftest.Figure62Name(1))
	f3, _ := rep.Coverage.App.Lookup(proftest.Figure62Name(3))
	assert.Contains(t, rep.Coverage.App.Out[f1], int32(f3))
	assert.Contains(t, rep.Coverage.App.In[f3], int32(f1))
	// The application the comparison weighs by (issue 30 item 4): F20,
	// which only the function set knows, is in it at the floor of half a
	// sample, marked; F17, sampled, keeps its flat share and its callers.
	a := analysis.Application(rep)
	require.NotNil(t, a)
	assert.True(t, a.Floored[f20])
	assert.InDelta(t, 0.5/float64(rep.Coverage.App.SamplesTaken), a.Shares[f20], 1e-12)
	assert.Equal(t, a.Floor, a.Shares[f20])
	f17 := proftest.Figure62Name(17)
	assert.False(t, a.Floored[f17])
	f17id, _ := rep.Coverage.App.Lookup(f17)
	assert.InDelta(t, rep.Coverage.App.Nodes[f17id].Flat/rep.Coverage.App.Total, a.Shares[f17], 1e-12)
	callers := 0.0
	for _, s := range a.Callers[f17] {
		callers += s
	}
	assert.InDelta(t, a.Shares[f17], callers, 1e-12, "F17 is never a stack's only frame: its callers hold all its time")
	assert.Equal(t, rep.Coverage.App.SamplesTaken, a.Samples)
	// F20 has no edge, so it is recommended alone, last among equals.
	last := rep.Recommendations.Recommendations[len(rep.Recommendations.Recommendations)-1]
	assert.Equal(t, f20, last.Function)

	var note *analysis.HybridNote
	require.ErrorAs(t, errors.Join(rep.Warnings...), &note)
	assert.Equal(t, "application functions from coverage and times from the profile: 11 project functions ran (the profile sampled 10); 1 only in coverage (app.F20); 1 only in the profile (app.F5)", note.Error())

	cfg.AppFunctions = []string{filepath.Join(t.TempDir(), "missing.json")}
	_, err = analysis.Run(context.Background(), cfg)
	var fe *mbopt.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, []mbopt.Field{"AppFunctions"}, fe.Fields())

	// A set with no functions is refused, not reported as "functions
	// from coverage" (issue 25: accepted with a note that contradicted it).
	empty := filepath.Join(t.TempDir(), "empty.cover.json")
	writeSet(t, empty, nil)
	cfg.AppFunctions = []string{setPath, empty}
	_, err = analysis.Run(context.Background(), cfg)
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, []mbopt.Field{"AppFunctions"}, fe.Fields())
	assert.Contains(t, err.Error(), empty+" holds no functions (1 package instrumented)")
}
