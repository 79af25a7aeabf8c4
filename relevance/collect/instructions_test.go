package collect_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/measure"
)

// TestCollectInstructions collects testdata/timed with Source
// instructions in both scopes: with Scope timed (the default) each
// benchmark's profile holds Hot alone of the module's functions, per
// operation; with Scope all, Hot, SetupOnly and ValidateOnly, as the
// papers count. The manifest records the source and the scope, and an
// output directory of the other scope is refused.
func TestCollectInstructions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/timed under Valgrind")
	}
	if _, err := measure.FindValgrind(""); err != nil {
		t.Skip(err)
	}
	const p = timedApp
	out := t.TempDir()
	for _, tc := range []timedCase{
		{"", manifest.SchemaVersionTimed, collect.DefaultTimedBenchTime, []string{p + "Hot"}},
		{manifest.ScopeAll, manifest.SchemaVersionCover, collect.DefaultTimedBenchTime, []string{p + "Hot", p + "SetupOnly", p + "ValidateOnly"}},
	} {
		t.Run(string(tc.scope), func(t *testing.T) {
			collectTimed(t, out, manifest.SourceInstructions, tc, func(m *manifest.Manifest, e manifest.Entry) {
				f, err := os.Open(filepath.Join(out, e.Profile))
				require.NoError(t, err)
				prof, err := profile.Parse(f)
				f.Close()
				require.NoError(t, err)
				assert.Equal(t, "instructions", prof.SampleType[0].Type)
				var project []string
				perFunc := map[string]int64{}
				for _, s := range prof.Sample {
					require.Positive(t, s.Value[0], "every sample of an instruction profile is positive")
					name := s.Location[0].Line[0].Function.Name
					perFunc[name] += s.Value[0]
					// The benchmark functions are the test's own code, which
					// the analysis leaves to the application's profile.
					if strings.HasPrefix(name, p) && !strings.HasPrefix(name, p+"Benchmark") && !slices.Contains(project, name) {
						project = append(project, name)
					}
				}
				slices.Sort(project)
				assert.Equal(t, tc.want, project, e.ID)
				if m.IsTimed() {
					// Hot folds 1<<16 numbers 8 times an operation: several
					// instructions each.
					assert.Greater(t, perFunc[p+"Hot"], int64(8<<16), "%s: Hot's instructions per operation", e.ID)
				}
			})
		})
	}
	_, err := collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/timed", Out: out, Source: manifest.SourceInstructions})
	var ie *mbopt.Error
	require.ErrorAs(t, err, &ie)
	assert.Contains(t, err.Error(), "holds instruction profiles of whole runs (Scope all), and this run collects instruction profiles of timed loops (Scope timed); the two never mix")
	_, err = collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/timed", Out: out, Source: manifest.SourceCover})
	require.ErrorAs(t, err, &ie)
	assert.Contains(t, err.Error(), "holds instruction profiles (Source instructions), and this run collects function sets (Source cover)")
}

// TestCollectInstructionsNoValgrind checks that Source instructions fails
// before building anything when valgrind is not in PATH, with measure's
// error, which says how to install it, and names the source that needs
// none.
func TestCollectInstructionsNoValgrind(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	out := filepath.Join(t.TempDir(), "out")
	_, err := collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/timed", Out: out, Source: manifest.SourceInstructions})
	require.ErrorIs(t, err, measure.ErrNoValgrind)
	assert.Contains(t, err.Error(), "apt-get install valgrind")
	assert.Contains(t, err.Error(), "or collect with source cover")
	assert.NoDirExists(t, out, "nothing written")
}

// TestCollectInstructionsSkip: a benchmark that skips itself is skipped
// under Source instructions too, with what it logged, as under Source
// profile; it was failed ("the benchmark did not run", and after measure
// read skips, "failed ...: the benchmark skipped itself").
func TestCollectInstructionsSkip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults under Valgrind")
	}
	if _, err := measure.FindValgrind(""); err != nil {
		t.Skip(err)
	}
	m, err := collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/faults", Patterns: []string{"./panics"}, Bench: "^BenchmarkSkip$",
		Out: t.TempDir(), Source: manifest.SourceInstructions})
	require.NoError(t, err)
	require.Len(t, m.Benchmarks, 1)
	e := m.Benchmarks[0]
	assert.Equal(t, "example.com/faults/panics.BenchmarkSkip", e.ID)
	assert.Equal(t, manifest.StatusSkipped, e.Status)
	assert.Equal(t, "panics_test.go:16: not today", e.Error)
}
