package synth_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/testkit/synth"
)

func graph(t *testing.T, s *synth.Suite, p *profile.Profile) *callgraph.Graph {
	t.Helper()
	require.NoError(t, p.CheckValid())
	g, err := callgraph.New(p, callgraph.Options{Modules: s.Modules()})
	require.NoError(t, err)
	return g
}

func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cfg         synth.Config
		minCoverage float64
	}{
		{"small", synth.Config{Seed: 1, AppNodes: 2000, Benchmarks: 150}, 0.2},
		{"default", synth.Config{Seed: 2}, 0.3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := synth.New(tc.cfg)
			cfg := s.Config()
			app := graph(t, s, s.App())
			assert.Equal(t, cfg.AppNodes, app.Len(), "every application function is in a sample")
			share := float64(app.ProjectLen()) / float64(app.Len())
			assert.InDelta(t, 0.3, share, 0.05, "project share")
			assert.Len(t, app.Roots(), 4, "runtime.goexit, runtime.main, runtime.mcall, runtime.mstart")
			cond := app.Condense()
			assert.Less(t, len(cond.Members), app.Len(), "some cycles")
			assert.Greater(t, len(cond.Members), app.Len()*9/10, "but small ones")
			maxDist := 0
			for _, d := range app.RootDistance() {
				maxDist = max(maxDist, d)
			}
			assert.GreaterOrEqual(t, maxDist, 10, "moderate depth")
			assert.Less(t, maxDist, 60, "moderate depth")

			benches := s.Benchmarks()
			require.Len(t, benches, cfg.Benchmarks)
			cbs := make([]coverage.Benchmark, len(benches))
			var variants, irrelevant int
			for k, b := range benches {
				g := graph(t, s, s.Benchmark(k))
				_, ok := g.Lookup("testing.(*B).runN")
				assert.True(t, ok, "%s has benchmark-own nodes", b.ID)
				_, ok = g.Lookup(b.Function)
				assert.True(t, ok, "%s has its Benchmark function %s", b.ID, b.Function)
				cbs[k] = coverage.Benchmark{ID: b.ID, Graph: g}
				if b.VariantOf >= 0 {
					variants++
				}
				if b.Entry < 0 {
					irrelevant++
				}
			}
			assert.Positive(t, variants)
			assert.Positive(t, irrelevant)
			cov := coverage.Compute(app, cbs)
			for k, b := range benches {
				set := cov.Sets[k] // IDs sort in index order
				require.Equal(t, b.ID, set.ID)
				if b.Entry < 0 {
					assert.Zero(t, set.ProjectNodes, "%s is irrelevant", b.ID)
					continue
				}
				entry, ok := app.Lookup(callgraph.NormalizeName(s.Name(b.Entry)))
				require.True(t, ok)
				assert.True(t, set.Nodes.Has(entry), "%s covers its entry", b.ID)
				// The region, plus runtime.goexit and the GC worker.
				assert.LessOrEqual(t, set.OverallNodes, b.Size+2, b.ID)
				assert.GreaterOrEqual(t, set.OverallNodes, min(b.Size, cfg.MinBenchNodes)/2, b.ID)
			}
			assert.Greater(t, cov.Project.Ratio, tc.minCoverage)
			assert.Less(t, cov.Project.Ratio, 0.95, "something is left to recommend")
		})
	}
}

func encode(t *testing.T, p *profile.Profile) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, p.WriteUncompressed(&buf))
	return buf.Bytes()
}

func TestDeterminism(t *testing.T) {
	cfg := synth.Config{Seed: 42, AppNodes: 3000, Benchmarks: 40}
	a, b := synth.New(cfg), synth.New(cfg)
	assert.Equal(t, encode(t, a.App()), encode(t, b.App()), "same seed, same application profile")
	assert.Equal(t, a.Benchmarks(), b.Benchmarks())
	// Benchmarks do not depend on the order they are generated in.
	for k := cfg.Benchmarks - 1; k >= 0; k -= 7 {
		assert.Equal(t, encode(t, a.Benchmark(k)), encode(t, b.Benchmark(k)), "benchmark %d", k)
	}
	ga, gb := graph(t, a, a.App()), graph(t, b, b.App())
	assert.Equal(t, ga.Nodes, gb.Nodes)
	assert.Equal(t, ga.Out, gb.Out)

	c := synth.New(synth.Config{Seed: 43, AppNodes: 3000, Benchmarks: 40})
	assert.NotEqual(t, encode(t, a.App()), encode(t, c.App()), "another seed, another profile")
}

func TestWriteDir(t *testing.T) {
	s := synth.New(synth.Config{Seed: 3, AppNodes: 1000, Benchmarks: 12})
	dir := t.TempDir()
	fs, err := s.WriteDir(dir, 3)
	require.NoError(t, err)
	require.Len(t, fs.Micro, 12)
	var total int64
	for k, path := range fs.Micro {
		assert.True(t, strings.HasSuffix(path, s.Benchmarks()[k].ID+".pprof"), path)
		p, err := callgraph.ReadProfile(path)
		require.NoError(t, err)
		assert.Equal(t, encode(t, s.Benchmark(k)), encode(t, p), "file %s holds benchmark %d", path, k)
		total += fileSize(t, path)
	}
	assert.Equal(t, total, fs.MicroBytes)
	app, err := callgraph.Load([]string{fs.App}, callgraph.Options{Modules: s.Modules()})
	require.NoError(t, err)
	assert.Equal(t, 1000, app.Len())
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	return st.Size()
}

// Chain and MaxStack: deep call chains, samples truncated to their
// leaf-most frames, every function still in the graph.
// TestCached checks that Cached writes a configuration's files once,
// reuses them, and writes them again when the directory is incomplete.
func TestCached(t *testing.T) {
	root := t.TempDir()
	cfg := synth.Config{Seed: 3, AppNodes: 200, Benchmarks: 4}
	first, err := synth.Cached(root, cfg)
	require.NoError(t, err)
	require.Len(t, first.Micro, 4)
	dir := filepath.Dir(first.App)
	st, err := os.Stat(first.Micro[0])
	require.NoError(t, err)

	again, err := synth.Cached(root, cfg)
	require.NoError(t, err)
	assert.Equal(t, first, again)
	st2, err := os.Stat(first.Micro[0])
	require.NoError(t, err)
	assert.Equal(t, st.ModTime(), st2.ModTime(), "a complete corpus is reused, not written again")

	require.NoError(t, os.Remove(first.Micro[2]))
	rewritten, err := synth.Cached(root, cfg)
	require.NoError(t, err)
	assert.Equal(t, first, rewritten)
	assert.FileExists(t, first.Micro[2])

	other, err := synth.Cached(root, synth.Config{Seed: 4, AppNodes: 200, Benchmarks: 4})
	require.NoError(t, err)
	assert.NotEqual(t, dir, filepath.Dir(other.App), "another configuration has a directory of its own")
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary directory is left behind")
}

func TestDeepChains(t *testing.T) {
	const n, limit = 5000, 64
	s := synth.New(synth.Config{Seed: 1, AppNodes: n, Benchmarks: 20, Chain: 0.9, MaxStack: limit})
	p := s.App()
	app := graph(t, s, p)
	assert.Equal(t, n, app.Len(), "every application function is in a sample")
	longest := 0
	for _, smp := range p.Sample {
		longest = max(longest, len(smp.Location))
	}
	assert.LessOrEqual(t, longest, limit, "MaxStack bounds the locations per sample")
	maxDist := 0
	for _, d := range app.RootDistance() {
		maxDist = max(maxDist, d)
	}
	assert.Greater(t, maxDist, 2*limit, "chains deeper than a sample: the graph joins truncated stacks")

	shallow := graph(t, s, synth.New(synth.Config{Seed: 1, AppNodes: n, Benchmarks: 20}).App())
	shallowDist := 0
	for _, d := range shallow.RootDistance() {
		shallowDist = max(shallowDist, d)
	}
	assert.Less(t, shallowDist, maxDist/3, "Chain deepens the same-size application")
	for k := range s.Benchmarks() {
		for _, smp := range s.Benchmark(k).Sample {
			require.LessOrEqual(t, len(smp.Location), limit, "benchmark %d", k)
		}
	}
}
