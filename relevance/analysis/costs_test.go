package analysis_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/relevance/analysis"
)

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
