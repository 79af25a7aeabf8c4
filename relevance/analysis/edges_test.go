package analysis_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/staticcg"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// figure62Files writes the Figure 6.2 fixture's profiles and returns the
// application file and the benchmark directory.
func figure62Files(t *testing.T) (string, string) {
	t.Helper()
	app, b1, b2 := proftest.Figure62()
	dir := t.TempDir()
	appPath := filepath.Join(dir, "app.pprof")
	proftest.WriteFile(t, appPath, app)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "micro"), 0o755))
	proftest.WriteFile(t, filepath.Join(dir, "micro", "one.pprof"), b1)
	proftest.WriteFile(t, filepath.Join(dir, "micro", "two.pprof"), b2)
	return appPath, filepath.Join(dir, "micro")
}

// On Figure 6.2, the sampled edges recommend F1 (+4: itself, 3, 5, 6) and
// then F8 (+1). A static edge F8 → F1, a call that ran but was never
// sampled, makes F8 reach every uncovered project node: one
// recommendation, +5, and the note names the sampled-only picks.
func TestStaticEdgesChangeRecommendations(t *testing.T) {
	appPath, micro := figure62Files(t)
	name := proftest.Figure62Name
	sg := &staticcg.Graph{Funcs: []staticcg.Func{{Name: name(1)}, {Name: name(8)}}, Out: [][]int32{nil, {0}}}
	cfg := analysis.Config{App: []string{appPath}, Micro: []string{micro}, Modules: []string{proftest.Figure62Module}, Recommend: -1, StaticGraph: sg}

	for _, tc := range []struct {
		edges staticcg.Edges
		picks []string
		note  string
	}{
		{staticcg.Sampled, []string{name(1), name(8)}, ""},
		{staticcg.Both, []string{name(8)},
			"recommendations walked sampled and static call edges (Config.Edges both): 21 edges between the application's functions, 1 static edges of which 1 were not sampled; with sampled edges only they would be: app.F1 +4, app.F8 +1"},
		// With the static edge alone (a hand-made static graph without
		// the sampled calls), F8 reaches F1 only, and F3, F5 and F6
		// reach nothing else.
		{staticcg.Static, []string{name(8), name(3), name(5), name(6)},
			"recommendations walked static call edges (Config.Edges static): 1 edges between the application's functions, 1 static edges of which 1 were not sampled, 20 sampled edges not in the static graph; with sampled edges only they would be: app.F1 +4, app.F8 +1"},
	} {
		t.Run(tc.edges.String(), func(t *testing.T) {
			cfg := cfg
			cfg.Edges = tc.edges
			rep, err := analysis.Run(context.Background(), cfg)
			require.NoError(t, err)
			var picks []string
			for _, r := range rep.Recommendations.Recommendations {
				picks = append(picks, r.Function)
			}
			assert.Equal(t, tc.picks, picks)
			var note *analysis.EdgesNote
			if tc.note == "" {
				assert.False(t, errors.As(errors.Join(rep.Warnings...), &note), "no EdgesNote with sampled edges")
				assert.Nil(t, rep.Edges)
				return
			}
			require.ErrorAs(t, errors.Join(rep.Warnings...), &note)
			assert.True(t, analysis.IsNote(note))
			assert.Equal(t, tc.note, note.Error())
			require.NotNil(t, rep.Edges)
			assert.Equal(t, 2, rep.Edges.Matched)
			var unmatched *analysis.UnmatchedFunctionsWarning
			require.ErrorAs(t, errors.Join(rep.Warnings...), &unmatched, "the hand-made static graph lacks most project functions")
			assert.Len(t, unmatched.Functions, 8)
		})
	}
}

// On the example module, the static edges do not change the picks (one
// handler reaches every uncovered function already), but they grow what
// the first pick newly covers outside the project.
func TestStaticEdgesOnTheExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example module's static call graph")
	}
	cfg := analysis.Config{
		App: []string{"../../testdata/profiles/example/app.pprof"}, Micro: []string{"../../testdata/profiles/example/micro"},
		Modules: []string{"example.com/tinytsdb"}, Recommend: 3, Edges: staticcg.Both,
		Static: staticcg.Options{Dir: "../../testdata/example"},
	}
	rep, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	cfg.Edges = staticcg.Sampled
	sampled, err := analysis.Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Len(t, rep.Recommendations.Recommendations, 3)
	require.Len(t, sampled.Recommendations.Recommendations, 3)
	for i, r := range rep.Recommendations.Recommendations {
		s := sampled.Recommendations.Recommendations[i]
		assert.Equal(t, s.Function, r.Function)
		assert.Equal(t, s.AddedProject, r.AddedProject)
		assert.GreaterOrEqual(t, r.AddedExternal, s.AddedExternal)
	}
	first := rep.Recommendations.Recommendations[0]
	assert.Equal(t, "example.com/tinytsdb/httpapi.(*Server).handleHealth", first.Function)
	assert.Equal(t, 0, sampled.Recommendations.Recommendations[0].AddedExternal)
	assert.Greater(t, first.AddedExternal, 0, "static edges reach the external code health checks call")
	require.NotNil(t, rep.Edges)
	assert.Empty(t, rep.Edges.Unmatched)
	var note *analysis.EdgesNote
	require.ErrorAs(t, errors.Join(rep.Warnings...), &note)
	assert.Contains(t, note.Error(), "the same recommendations as with sampled edges only")
}

// A source that does not build is an input error naming Static.Dir.
func TestStaticEdgesBadSource(t *testing.T) {
	appPath, micro := figure62Files(t)
	_, err := analysis.Run(context.Background(), analysis.Config{App: []string{appPath}, Micro: []string{micro},
		Modules: []string{proftest.Figure62Module}, Recommend: 1, Edges: staticcg.Static, Static: staticcg.Options{Dir: t.TempDir()}})
	require.Error(t, err)
	assert.True(t, errors.Is(err, mbopt.ErrInput))
	assert.True(t, errors.Is(err, staticcg.ErrLoad))
	var fe *mbopt.Error
	require.ErrorAs(t, err, &fe)
	assert.Contains(t, fe.Fields(), mbopt.Field("Static.Dir"))

	_, err = analysis.Run(context.Background(), analysis.Config{App: []string{appPath}, Micro: []string{micro},
		Modules: []string{proftest.Figure62Module}, Edges: staticcg.Edges(7)})
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, []mbopt.Field{"Edges"}, fe.Fields())
}
