package collect_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/collect"
	"github.com/mbopt/mbopt/covdata"
	"github.com/mbopt/mbopt/manifest"
)

// TestCollectCover collects part of the faults fixture with Source cover:
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
		cfg.Dir, cfg.Out, cfg.Patterns = "../testdata/faults", out, []string{"./healthy", "./panics", "./hangs"}
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
	m, _, err := run(collect.Config{Source: manifest.SourceCover})
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
	_, reused, err := run(collect.Config{Source: manifest.SourceCover})
	require.NoError(t, err)
	assert.Len(t, reused, len(m.Benchmarks), "every entry is reused: %v", reused)
	assert.Zero(t, collect.Launches()-launches, "an unchanged rerun starts no test binary")

	// A changed function set is collected again.
	require.NoError(t, os.WriteFile(filepath.Join(out, sub.Functions), []byte(`{"version": 1}`), 0o644))
	_, reused, err = run(collect.Config{Source: manifest.SourceCover})
	require.NoError(t, err)
	assert.NotContains(t, reused, "healthy.BenchmarkSub/n=10")
	assert.Len(t, reused, len(m.Benchmarks)-1)

	_, _, err = run(collect.Config{})
	var ie *collect.InputError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "Source", ie.Field)
	assert.Contains(t, err.Error(), "holds function sets (Source cover), and this run collects CPU profiles (Source profile); the two never mix")
	m, _, err = run(collect.Config{Force: true, BenchTime: "1x"})
	require.NoError(t, err, "Force replaces the other source's collection")
	assert.Empty(t, m.Source)
	assert.Equal(t, manifest.SchemaVersion, m.Version)
	for _, e := range m.Benchmarks {
		assert.Empty(t, e.Functions, e.ID)
	}
}
