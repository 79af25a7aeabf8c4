package analysis_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/analysis"
)

func TestParseApps(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		files     []string
		scenarios []analysis.ScenarioSpec
		err       string
	}{
		{name: "plain files merge", args: []string{"a.pprof", "b.pprof"}, files: []string{"a.pprof", "b.pprof"}},
		{
			name: "named, weighted, repeated", args: []string{"ingest=i1.pprof", "query=q.pprof:2.5", "ingest=i2.pprof"},
			files: []string{"i1.pprof", "q.pprof", "i2.pprof"},
			scenarios: []analysis.ScenarioSpec{
				{Name: "ingest", Files: []string{"i1.pprof", "i2.pprof"}},
				{Name: "query", Files: []string{"q.pprof"}, Weight: 2.5, Weighted: true},
			},
		},
		{name: "colon not a weight stays in the path", args: []string{"s=dir:x/a.pprof"}, files: []string{"dir:x/a.pprof"},
			scenarios: []analysis.ScenarioSpec{{Name: "s", Files: []string{"dir:x/a.pprof"}}}},
		{name: "mixed", args: []string{"a=x.pprof", "y.pprof"}, err: "--app: give every application profile a scenario name (NAME=FILE) or none; 1 of 2 have none"},
		{name: "zero weight", args: []string{"a=x.pprof:0"}, err: "--app a=x.pprof:0: the weight must be a positive number, not 0"},
		{name: "two weights", args: []string{"a=x.pprof:1", "a=y.pprof:2"}, err: "--app: scenario a has two weights, 1 and 2"},
		{name: "no file", args: []string{"a="}, err: `--app a=: no file after "a="`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, scs, err := analysis.ParseApps(tt.args)
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.files, files)
			assert.Equal(t, tt.scenarios, scs)
		})
	}
}

func TestReadCosts(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content string
		want          map[string]float64
		err           string
	}{
		{name: "json", content: `{"a": 1.5, "b": 2}`, want: map[string]float64{"a": 1.5, "b": 2}},
		{name: "csv with header", content: "id,seconds\na,1.5\nb, 2\n", want: map[string]float64{"a": 1.5, "b": 2}},
		{
			// wall time first, ns/op × iterations when it is missing;
			// ids are the profile file names without extension.
			name: "manifest",
			content: `{"version": 1, "benchmarks": [
				{"id": "m/p.BenchmarkA", "profile": "p.BenchmarkA-1.pprof", "wall_seconds": 3, "ns_per_op": 100, "iterations": 10},
				{"id": "m/p.BenchmarkB", "profile": "p.BenchmarkB-2.pprof", "ns_per_op": 2e6, "iterations": 500},
				{"id": "m/p.BenchmarkC", "status": "failed"}]}`,
			want: map[string]float64{"m/p.BenchmarkA": 3, "m/p.BenchmarkB": 1},
		},
		{name: "bad number", content: "a,1\nb,x\n", err: `:2: cost "x" is not a number of seconds`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			require.NoError(t, os.WriteFile(path, []byte(tt.content), 0o644))
			got, err := analysis.ReadCosts(path)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
