package measure

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFunctionCost counts Map's own instructions per call in BenchmarkMap
// (one call per operation) and refuses a function the benchmark does not
// call.
func TestFunctionCost(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the fixture four times under Callgrind")
	}
	needValgrind(t)
	o := fixture(t, "BenchmarkMap")
	c, err := FunctionCost(context.Background(), o, "example.com/measurefixture.Map")
	require.NoError(t, err)
	t.Logf("%+v", c)
	assert.InDelta(t, 1, c.CallsPerOp, 1e-9, "one call per operation")
	assert.Greater(t, c.PerCall, 1000.0, "200 map insertions' own code")
	_, err = FunctionCost(context.Background(), o, "example.com/measurefixture.Nothing")
	assert.ErrorContains(t, err, "example.com/measurefixture.Nothing is not called in the benchmark's loop")
}
