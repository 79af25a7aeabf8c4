package measure

import (
	"context"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMeasureCommandCountRepeats counts the fixture's test binary as a
// whole program (a command, as Confirm.Command runs it) three times: the
// counts agree within 0.5%. Without the counting environment its idle
// processors spin under Valgrind and the counts of identical runs differ
// several-fold.
func TestMeasureCommandCountRepeats(t *testing.T) {
	if testing.Short() {
		t.Skip("counts a program three times under Valgrind")
	}
	needValgrind(t)
	// BenchmarkMap allocates: with the collector on, when it runs (and
	// how much it marks) differs between identical runs.
	for _, bench := range []string{"BenchmarkHash", "BenchmarkMap"} {
		t.Run(bench, func(t *testing.T) {
			o := fixture(t, bench)
			c := Command{Shell: `"` + o.Binary + `" -test.run '^$' -test.bench '^` + bench + `$' -test.benchtime 3000x`, Dir: o.Dir, Env: os.Environ()}
			var counts []float64
			for range 3 {
				n, err := MeasureCommand(context.Background(), Instructions, c)
				require.NoError(t, err)
				counts = append(counts, n)
			}
			lo, hi := slices.Min(counts), slices.Max(counts)
			t.Logf("counts %.0f", counts)
			assert.Greater(t, lo, 1e6, "a Go program runs millions of instructions")
			assert.Less(t, (hi-lo)/lo, 0.002, "identical runs count alike: %.0f", counts)
		})
	}
}

// TestMeasureCommandFails: a failing command is an error naming it, with
// the tail of its output, for every metric.
func TestMeasureCommandFails(t *testing.T) {
	for _, m := range []Metric{Time, CPU, Instructions} {
		t.Run(string(m), func(t *testing.T) {
			if m == Instructions {
				needValgrind(t)
			}
			_, err := MeasureCommand(context.Background(), m, Command{Shell: "echo the workload broke; exit 3", Dir: t.TempDir()})
			require.Error(t, err)
			assert.Contains(t, err.Error(), `application command "echo the workload broke; exit 3"`)
			assert.Contains(t, err.Error(), "the workload broke")
		})
	}
}

// TestMeasureCommandMeasures: wall and CPU time of a command that works
// for a while are positive and the CPU time at most a little above the
// wall time (one busy process).
func TestMeasureCommandMeasures(t *testing.T) {
	c := Command{Shell: "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done", Dir: t.TempDir()}
	wall, err := MeasureCommand(context.Background(), Time, c)
	require.NoError(t, err)
	cpu, err := MeasureCommand(context.Background(), CPU, c)
	require.NoError(t, err)
	assert.Greater(t, wall, 0.0)
	assert.Greater(t, cpu, 0.0)
	assert.False(t, math.IsNaN(cpu))
	assert.Equal(t, "sec", CommandUnit(Time))
	assert.Equal(t, "cpu-sec", CommandUnit(CPU))
	assert.Equal(t, "instructions", CommandUnit(Instructions))
}
