package collect_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/collect"
	"github.com/mbopt/mbopt/covdata"
	"github.com/mbopt/mbopt/manifest"
)

// TestCoverRecallOnExample collects the example module (../testdata/example)
// with Source cover and pins that every function the committed profiles of
// its benchmarks (../testdata/profiles/example/micro, one per top-level
// benchmark) sampled is in the function sets of that benchmark's leaves:
// recall 100% of the profiled functions of instrumented packages, leaving
// out the benchmarks' own code in _test.go files, which coverage does not
// instrument. It logs what the sets hold that sampling missed.
func TestCoverRecallOnExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the benchmarks of testdata/example with -cover")
	}
	const mod = "example.com/tinytsdb"
	out := t.TempDir()
	m, err := collect.Collect(t.Context(), collect.Config{Dir: "../testdata/example", Out: out, Source: manifest.SourceCover, Timeout: time.Minute})
	require.NoError(t, err)
	assert.True(t, m.IsCover())
	assert.Equal(t, collect.DefaultCoverBenchTime, m.BenchTime)

	// The union of each top-level benchmark's leaves' sets.
	sets := map[string][]*covdata.Set{}
	for _, e := range m.Benchmarks {
		require.Equal(t, manifest.StatusOK, e.Status, "%s: %s", e.ID, e.Error)
		require.NotEmpty(t, e.Functions, e.ID)
		assert.Empty(t, e.Profile, e.ID)
		s, err := covdata.ReadFile(filepath.Join(out, e.Functions))
		require.NoError(t, err)
		assert.Contains(t, s.Packages, e.Package, "the benchmark's package is instrumented")
		top, _, _ := strings.Cut(e.Name, "/")
		id := strings.ReplaceAll(strings.TrimPrefix(e.Package, mod+"/"), "/", "_") + "__" + top
		sets[id] = append(sets[id], s)
	}
	profiles, err := filepath.Glob("../testdata/profiles/example/micro/*.pprof")
	require.NoError(t, err)
	require.NotEmpty(t, profiles)
	total, onlyCover := 0, 0
	for _, file := range profiles {
		id := strings.TrimSuffix(filepath.Base(file), ".pprof")
		ss := sets[id]
		require.NotEmpty(t, ss, "no function set for the benchmark of %s", file)
		p, err := callgraph.ReadProfile(file)
		require.NoError(t, err)
		sampled := map[string]bool{}
		for _, fn := range p.Function {
			name := callgraph.NormalizeName(fn.Name)
			pkg := callgraph.PackageOf(name)
			if !ss[0].Instrumented(pkg) || strings.HasSuffix(fn.Filename, "_test.go") || sampled[name] {
				continue
			}
			sampled[name] = true
			total++
			assert.True(t, slices.ContainsFunc(ss, func(s *covdata.Set) bool { return s.Contains(name) }),
				"%s: the profile sampled %s, which no function set of the benchmark holds", id, name)
		}
		var missed []string
		seen := map[string]bool{}
		for _, s := range ss {
			for _, f := range s.Funcs {
				if !sampled[f.Name] && !seen[f.Name] {
					seen[f.Name] = true
					missed = append(missed, strings.TrimPrefix(f.Name, mod+"/"))
				}
			}
		}
		slices.Sort(missed)
		onlyCover += len(missed)
		if len(missed) > 0 {
			t.Logf("%s: sampling missed %d: %s", id, len(missed), strings.Join(missed, ", "))
		}
	}
	t.Logf("%d profile functions of instrumented packages, all in the function sets; the sets add %d (benchmark, function) pairs sampling missed", total, onlyCover)
}
