package collect_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// TestCollectExample collects the example module (../testdata/example, the
// module the README's demo runs on) with a short benchtime and checks the
// manifest: every benchmark profiled, IDs unique, files in place.
func TestCollectExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the benchmarks of testdata/example")
	}
	dir := "../../testdata/example"
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Skip("testdata/example is not there yet")
	}
	pkgs, err := collect.Discover(t.Context(), collect.Config{Dir: dir})
	require.NoError(t, err)
	declared := map[string]bool{}
	for _, p := range pkgs {
		for _, b := range p.Benchmarks {
			declared[benchname.ID(p.Path, b)] = true
		}
	}

	out := t.TempDir()
	m, err := collect.Collect(t.Context(), collect.Config{Dir: dir, Out: out, BenchTime: "100ms", Timeout: time.Minute})
	require.NoError(t, err)
	assert.Equal(t, "example.com/tinytsdb", m.Module)
	assert.Equal(t, "100ms", m.BenchTime)
	require.NotEmpty(t, m.Benchmarks)

	ids := map[string]bool{}
	files := map[string]bool{}
	tops := map[string]bool{}
	for _, e := range m.Benchmarks {
		assert.Equal(t, manifest.StatusOK, e.Status, "%s: %s", e.ID, e.Error)
		assert.False(t, ids[e.ID], "duplicate id %s", e.ID)
		ids[e.ID] = true
		assert.Equal(t, benchname.ID(e.Package, e.Name), e.ID)
		assert.True(t, strings.HasPrefix(e.Package, m.Module), e.Package)
		if e.Status != manifest.StatusOK {
			continue
		}
		assert.False(t, files[e.Profile], "profile %s shared", e.Profile)
		files[e.Profile] = true
		assert.FileExists(t, filepath.Join(out, e.Profile))
		assert.Positive(t, e.NsPerOp, "%s ns/op", e.ID)
		assert.Positive(t, e.Iterations, "%s iterations", e.ID)
		top, _, _ := strings.Cut(e.Name, "/")
		tops[benchname.ID(e.Package, top)] = true
	}
	assert.Equal(t, declared, tops, "every declared top-level benchmark is profiled, and nothing else")
	assert.Greater(t, len(m.Benchmarks), len(declared), "sub-benchmarks are profiled one by one")

	// A rerun of the unchanged module starts no test binary: the lists and
	// discoveries come from the cache, the profiles are reused.
	launches := collect.Launches()
	start := time.Now()
	var starts, reused int
	again, err := collect.Collect(t.Context(), collect.Config{Dir: dir, Out: out, BenchTime: "100ms", Timeout: time.Minute,
		Progress: func(ev collect.Event) {
			switch {
			case ev.Kind == collect.EventStart:
				starts++
			case ev.Kind == collect.EventFinish && ev.Reused:
				reused++
			}
		}})
	require.NoError(t, err)
	t.Logf("rerun of the unchanged example module (%d benchmarks): %v", len(again.Benchmarks), time.Since(start).Round(10*time.Millisecond))
	assert.Zero(t, collect.Launches()-launches, "test binaries started by the rerun")
	assert.Zero(t, starts, "profile runs in the rerun")
	assert.Equal(t, len(m.Benchmarks), reused)
	assert.Equal(t, m, again)
}
