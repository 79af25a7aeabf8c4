package history

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMDEs: each benchmark's minimum detectable effect comes from its
// latest comparison in the unit asked for.
func TestMDEs(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "h.db"))
	_, err := s.Add(ctx, report('a', 'b', 1, 0.02, map[string]float64{"BenchmarkA": 0.1, "BenchmarkB": 0}), testMachine)
	require.NoError(t, err)
	_, err = s.Add(ctx, report('a', 'c', 2, 0.005, map[string]float64{"BenchmarkA": 0.1}), testMachine)
	require.NoError(t, err)
	m, err := s.MDEs(ctx, "sec/op")
	require.NoError(t, err)
	assert.InDelta(t, 0.005, m["example.com/m.BenchmarkA"], 1e-12, "the latest comparison")
	assert.InDelta(t, 0.02, m["example.com/m.BenchmarkB"], 1e-12)
	assert.Len(t, m, 2)
	m, err = s.MDEs(ctx, "instructions/op")
	require.NoError(t, err)
	assert.Empty(t, m)
}
