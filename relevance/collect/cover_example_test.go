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
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// bNDependent are the functions that the example's benchmarks run only
// after state has built up over many iterations (a head buffer sealed into
// a block when full, blocks merged after so many, a query's rate grid
// filled), by benchmark (profile id): the committed profiles (2s each)
// sample them, a run at 1x (DefaultCoverBenchTime) does not reach them.
var bNDependent = map[string][]string{
	"httpapi__BenchmarkQueryHandler": {"query.rateGrid"},
	"httpapi__BenchmarkWrite": {"encoding.(*bitReader).readBit", "encoding.(*bitWriter).writeBit", "encoding.MarshalTimestamps",
		"encoding.MarshalValues", "encoding.UnmarshalTimestamps", "encoding.UnmarshalTimestamps.func1", "encoding.UnmarshalValues",
		"storage.(*Block).decode", "storage.(*series).merge", "storage.(*series).seal", "storage.newBlock", "storage.pointSorter.Less",
		"storage.pointSorter.Swap", "storage.sortPoints"},
	"storage__BenchmarkAddRows": {"encoding.(*bitWriter).writeBit", "encoding.(*bitWriter).writeBits", "encoding.MarshalTimestamps",
		"encoding.MarshalValues", "storage.(*series).seal", "storage.newBlock", "storage.sortPoints"},
	"storage__BenchmarkAddRowsBatch": {"encoding.(*bitWriter).writeBit", "encoding.(*bitWriter).writeBits", "encoding.MarshalTimestamps",
		"encoding.MarshalValues", "storage.(*series).seal", "storage.newBlock", "storage.sortPoints"},
}

// suiteBNDependent are the functions of bNDependent that no benchmark of
// the example reaches at 1x: sorting a head buffer's points takes a buffer
// with points out of order, which only many iterations of
// httpapi.BenchmarkWrite build.
var suiteBNDependent = []string{"storage.pointSorter.Less", "storage.pointSorter.Swap"}

// TestCoverRecallOnExample collects the example module (../testdata/example)
// with Source cover and its defaults (one iteration per benchmark) and
// compares the function sets with the committed profiles of its
// benchmarks (../testdata/profiles/example/micro, one per top-level
// benchmark, 2s each), over the functions of instrumented packages outside
// the _test.go files coverage does not instrument: every function some
// profile sampled is in some benchmark's set but those of
// suiteBNDependent, and a function a benchmark's profile sampled is missing from the sets of
// that benchmark's leaves only when bNDependent lists it. It logs what the
// sets hold that sampling missed.
func TestCoverRecallOnExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the benchmarks of testdata/example with -cover")
	}
	const mod = "example.com/tinytsdb"
	out := t.TempDir()
	m, err := collect.Collect(t.Context(), collect.Config{Dir: "../../testdata/example", Out: out, Source: manifest.SourceCover, Scope: manifest.ScopeAll, Timeout: time.Minute})
	require.NoError(t, err)
	assert.True(t, m.IsCover())
	assert.Equal(t, collect.DefaultCoverBenchTime, m.BenchTime)

	// The sets of each top-level benchmark's leaves, and of all.
	sets := map[string][]*covdata.Set{}
	var all []*covdata.Set
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
		all = append(all, s)
	}
	contains := func(ss []*covdata.Set, name string) bool {
		return slices.ContainsFunc(ss, func(s *covdata.Set) bool { return s.Contains(name) })
	}
	profiles, err := filepath.Glob("../../testdata/profiles/example/micro/*.pprof")
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
			if !contains(all, name) {
				assert.Contains(t, suiteBNDependent, strings.TrimPrefix(name, mod+"/"), "%s: the profile sampled %s, which no benchmark's function set holds", id, name)
			}
			if !contains(ss, name) {
				assert.Contains(t, bNDependent[id], strings.TrimPrefix(name, mod+"/"),
					"%s: the profile sampled %s, which no function set of the benchmark holds", id, name)
			}
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
	t.Logf("%d profile functions of instrumented packages; the sets add %d (benchmark, function) pairs sampling missed", total, onlyCover)
}
