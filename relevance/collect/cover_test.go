package collect_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// TestCollectCover collects part of the faults fixture with Source cover
// and Scope all:
// faults get the statuses they get with profiles, the ok benchmarks get
// function sets, an unchanged rerun starts no test binary, and an output
// directory of the other source is refused until Force.
func TestCollectCover(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults")
	}
	out := t.TempDir()
	run := func(cfg collect.Config) (*manifest.Manifest, []string, error) {
		t.Helper()
		cfg.Dir, cfg.Out, cfg.Patterns = "../../testdata/faults", out, []string{"./healthy", "./panics", "./hangs"}
		cfg.Bench = "Fast|Sub|Fatal|Panic$|Skip|Quick"
		var reused []string
		cfg.Progress = func(ev collect.Event) {
			if ev.Kind == collect.EventFinish && ev.Reused {
				reused = append(reused, strings.TrimPrefix(ev.Entry.ID, "example.com/faults/"))
			}
		}
		m, err := collect.Collect(t.Context(), cfg)
		slices.Sort(reused)
		return m, reused, err
	}
	m, _, err := run(collect.Config{Source: manifest.SourceCover, Scope: manifest.ScopeAll})
	require.NoError(t, err)
	assert.Equal(t, manifest.SourceCover, m.Source)
	assert.Equal(t, manifest.SchemaVersionCover, m.Version)
	assert.Equal(t, collect.DefaultCoverBenchTime, m.BenchTime)
	for _, e := range m.Benchmarks {
		want, ok := faultsWant[e.ID]
		require.True(t, ok, e.ID)
		assert.Equal(t, want.status, e.Status, "%s: %s", e.ID, e.Error)
		assert.Contains(t, e.Error, want.err, e.ID)
		assert.Empty(t, e.Profile, e.ID)
		if e.Status != manifest.StatusOK {
			assert.Empty(t, e.Functions, e.ID)
			continue
		}
		require.NotEmpty(t, e.Functions, e.ID)
		s, err := covdata.ReadFile(filepath.Join(out, e.Functions))
		require.NoError(t, err)
		if e.Package == "example.com/faults/hangs" {
			assert.Empty(t, s.Funcs, "%s: the package has no statement to instrument", e.ID)
		}
	}
	sub, ok := m.Lookup("example.com/faults/healthy.BenchmarkSub/n=10")
	require.True(t, ok)
	s, err := covdata.ReadFile(filepath.Join(out, sub.Functions))
	require.NoError(t, err)
	assert.True(t, s.Contains("example.com/faults/healthy.Sum"), "functions: %+v", s.Funcs)
	loaded, err := manifest.Load(out)
	require.NoError(t, err)
	assert.Equal(t, m, loaded)

	launches := collect.Launches()
	_, reused, err := run(collect.Config{Source: manifest.SourceCover, Scope: manifest.ScopeAll})
	require.NoError(t, err)
	assert.Len(t, reused, len(m.Benchmarks), "every entry is reused: %v", reused)
	assert.Zero(t, collect.Launches()-launches, "an unchanged rerun starts no test binary")

	// A changed function set is collected again.
	require.NoError(t, os.WriteFile(filepath.Join(out, sub.Functions), []byte(`{"version": 1}`), 0o644))
	_, reused, err = run(collect.Config{Source: manifest.SourceCover, Scope: manifest.ScopeAll})
	require.NoError(t, err)
	assert.NotContains(t, reused, "healthy.BenchmarkSub/n=10")
	assert.Len(t, reused, len(m.Benchmarks)-1)

	_, _, err = run(collect.Config{})
	var ie *mbopt.Error
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, mbopt.Field("Source"), ie.Field)
	assert.Contains(t, err.Error(), "holds function sets (Source cover), and this run collects CPU profiles (Source profile); the two never mix")
	m, _, err = run(collect.Config{Force: true, BenchTime: "1x"})
	require.NoError(t, err, "Force replaces the other source's collection")
	assert.Empty(t, m.Source)
	assert.Equal(t, manifest.SchemaVersion, m.Version)
	for _, e := range m.Benchmarks {
		assert.Empty(t, e.Functions, e.ID)
	}
}

// TestCollectTimed collects the timed fixture (../testdata/timed: a
// benchmark that calls SetupOnly before b.ResetTimer, Hot in its loop and
// ValidateOnly after b.StopTimer, and the same with b.Loop) with Source
// cover in both scopes: timed, the default, keeps Hot alone, all keeps the
// three; the manifests and sets record the scope, and an Out of one scope
// is refused to the other.
func TestCollectTimed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/timed")
	}
	const p = timedApp
	out := t.TempDir()
	for _, tc := range []timedCase{
		{"", manifest.SchemaVersionTimed, collect.DefaultTimedBenchTime, []string{p + "Hot"}},
		{manifest.ScopeAll, manifest.SchemaVersionCover, collect.DefaultCoverBenchTime, []string{p + "Hot", p + "SetupOnly", p + "ValidateOnly"}},
	} {
		t.Run(string(tc.scope), func(t *testing.T) {
			collectTimed(t, out, manifest.SourceCover, tc, func(m *manifest.Manifest, e manifest.Entry) {
				s, err := covdata.ReadFile(filepath.Join(out, e.Functions))
				require.NoError(t, err)
				assert.Equal(t, tc.want, names(s), e.ID)
				assert.Equal(t, m.IsTimed(), s.Timed, e.ID)
			})
		})
	}
	_, err := collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/timed", Out: out, Source: manifest.SourceCover})
	var ie *mbopt.Error
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, mbopt.Field("Scope"), ie.Field)
	assert.Contains(t, err.Error(), "holds function sets of whole runs (Scope all), and this run collects function sets of timed loops (Scope timed); the two never mix")
}

// timedApp is the package of the timed fixture's functions, with a dot.
const timedApp = "example.com/timed/app."

// timedCase is one collection of the timed fixture (../testdata/timed) in
// a scope, and what its manifest and data must record.
type timedCase struct {
	scope   manifest.Scope
	version int      // the manifest's schema version
	bench   string   // its bench time
	want    []string // the module's functions in each benchmark's data
}

// collectTimed collects the timed fixture into out with source and
// tc.scope, replacing what out holds, and checks what every source
// records: tc's schema version and bench time, the source, the scope, and
// both benchmarks collected; check looks at each benchmark's data, and
// then the manifest on disk must be the one returned.
func collectTimed(t *testing.T, out string, source manifest.Source, tc timedCase, check func(m *manifest.Manifest, e manifest.Entry)) {
	t.Helper()
	m, err := collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/timed", Out: out, Source: source, Scope: tc.scope, Force: true})
	require.NoError(t, err)
	assert.Equal(t, tc.version, m.Version)
	assert.Equal(t, source, m.Source)
	assert.Equal(t, tc.scope == "", m.IsTimed())
	assert.Equal(t, tc.bench, m.BenchTime)
	require.Len(t, m.Benchmarks, 2)
	for _, e := range m.Benchmarks {
		require.Equal(t, manifest.StatusOK, e.Status, "%s: %s", e.ID, e.Error)
		check(m, e)
	}
	loaded, err := manifest.Load(out)
	require.NoError(t, err)
	assert.Equal(t, m, loaded)
}

// TestCollectScopeErrors checks the Configs the timed scope refuses
// before anything runs.
func TestCollectScopeErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg   collect.Config
		field mbopt.Field
		want  string
	}{
		{collect.Config{Scope: "loop"}, "Scope", `unknown scope "loop"`},
		{collect.Config{Scope: manifest.ScopeTimed}, "Scope", "a sampled CPU profile cannot tell a benchmark's timed loop from its setup"},
		{collect.Config{Source: manifest.SourceCover, BenchTime: "1s"}, "BenchTime", `benchtime "1s" with scope "timed"`},
		{collect.Config{Source: manifest.SourceCover, Scope: manifest.ScopeTimed, BenchTime: "2x"}, "BenchTime", "give a count above 2"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			tc.cfg.Dir, tc.cfg.Out = "../../testdata/timed", filepath.Join(t.TempDir(), "out")
			_, err := collect.Collect(t.Context(), tc.cfg)
			var ie *mbopt.Error
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, tc.field, ie.Field)
			assert.Contains(t, err.Error(), tc.want)
			assert.NoDirExists(t, tc.cfg.Out)
		})
	}
}

// names returns the names of s's functions.
func names(s *covdata.Set) []string {
	var out []string
	for _, f := range s.Funcs {
		out = append(out, f.Name)
	}
	return out
}
