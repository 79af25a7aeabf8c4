package coverage_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
)

// TestFootprintsMatchGraphs checks that benchmarks given as footprints
// (callgraph.Table.Load) have the coverage of the same benchmarks given as
// graphs: against the application graph the table was made from, and,
// through names, against another graph (a scenario of the union), for
// Compute and Scenarios.
func TestFootprintsMatchGraphs(t *testing.T) {
	const dir = "../testdata/profiles/example"
	opts := callgraph.Options{Modules: []string{"example.com/tinytsdb"}}
	union, err := callgraph.Load([]string{dir + "/app-ingest.pprof", dir + "/app-query.pprof"}, opts)
	require.NoError(t, err)
	ingest, err := callgraph.Load([]string{dir + "/app-ingest.pprof"}, opts)
	require.NoError(t, err)
	query, err := callgraph.Load([]string{dir + "/app-query.pprof"}, opts)
	require.NoError(t, err)

	entries, err := os.ReadDir(dir + "/micro")
	require.NoError(t, err)
	tab := callgraph.NewTable(union)
	benchOpts := opts
	benchOpts.NoEdges = true
	var graphs, footprints []coverage.Benchmark
	for _, e := range entries {
		path := filepath.Join(dir, "micro", e.Name())
		g, err := callgraph.Load([]string{path}, benchOpts)
		require.NoError(t, err)
		fp, err := tab.Load(path, opts)
		require.NoError(t, err)
		graphs = append(graphs, coverage.Benchmark{ID: e.Name(), Graph: g})
		footprints = append(footprints, coverage.Benchmark{ID: e.Name(), Footprint: fp})
	}
	require.NotEmpty(t, graphs)

	for _, app := range []struct {
		name string
		g    *callgraph.Graph
	}{{"the table's graph", union}, {"another graph", ingest}} {
		t.Run(app.name, func(t *testing.T) {
			want := coverage.Compute(app.g, graphs)
			got := coverage.Compute(app.g, footprints)
			assert.Equal(t, want.Sets, got.Sets)
			assert.Equal(t, want.Covered, got.Covered)
			assert.Equal(t, want.Project, got.Project)
			assert.Positive(t, want.Overall.Covered)
		})
	}
	scenarios := []coverage.Scenario{{Name: "ingest", Graph: ingest}, {Name: "query", Graph: query}}
	want := coverage.Scenarios(union, scenarios, graphs)
	got := coverage.Scenarios(union, scenarios, footprints)
	for i := range want.Each {
		assert.Equal(t, want.Each[i].Sets, got.Each[i].Sets, "scenario %s", want.Names[i])
	}
	assert.Equal(t, want.Union.Sets, got.Union.Sets)
	assert.Equal(t, want.Project, got.Project)

	assert.PanicsWithValue(t, "coverage: benchmark nothing has neither a graph nor a footprint", func() {
		coverage.Compute(union, []coverage.Benchmark{{ID: "nothing"}})
	})
}
