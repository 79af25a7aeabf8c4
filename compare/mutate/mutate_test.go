package mutate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/mutate"
	"github.com/mbopt/mbopt/internal/opprof"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
	"github.com/mbopt/mbopt/testkit/need"
)

func TestFind(t *testing.T) {
	dir := cmpfixture.HotRepo(t)
	s, err := mutate.Find(context.Background(), dir, cmpfixture.Hot)
	require.NoError(t, err)
	assert.Equal(t, cmpfixture.Package, s.Package)
	assert.Equal(t, "work.go", filepath.Base(s.File))
	src := string(s.Source(7))
	assert.Contains(t, src, "func Hot(seed uint64) uint64 { "+mutate.SpinName+"(7);\n")
	assert.Contains(t, src, "func "+mutate.SpinName+"(n int) {")
	orig, err := os.ReadFile(s.File)
	require.NoError(t, err)
	assert.Equal(t, strings.Count(string(orig), "\n"), strings.Count(src[:strings.Index(src, "\n\n// "+mutate.SpinName)], "\n"), "no line of the file moves")
	for _, tc := range []struct{ name, want string }{
		{"example.com/fixture/work.Nope", "package example.com/fixture/work declares no function Nope"},
		{"example.com/fixture/work.Hot.func1", "is a closure"},
		{"nodot", "is not a function's full name"},
		{"example.com/fixture/nosuch.F", "go list example.com/fixture/nosuch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mutate.Find(context.Background(), dir, tc.name)
			require.Error(t, err)
			assert.True(t, errors.Is(err, mbopt.ErrInput), "an input error: %v", err)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

// TestSizeKnownAnswer slows Hot down by 10% of its own cost and counts
// BenchmarkServe before and after: the mutant adds 10% of Hot's own
// instructions per operation to the module's code, within 0.5% of that
// amount, and the source tree is untouched.
func TestSizeKnownAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three binaries and counts them under Valgrind")
	}
	need.Tool(t, "the mutant's sizing", "valgrind")
	dir := cmpfixture.HotRepo(t)
	ctx := context.Background()
	s, err := mutate.Find(ctx, dir, cmpfixture.Hot)
	require.NoError(t, err)
	o := mutate.SizeOptions{ModuleDir: dir, BenchPackage: cmpfixture.Package, Benchmark: cmpfixture.HotServe}
	z, err := mutate.Size(ctx, s, o)
	require.NoError(t, err)
	t.Logf("%+v; +10%%: %d iterations", z, z.Iterations(0.10))
	assert.InDelta(t, 1, z.CallsPerOp, 1e-9, "Serve calls Hot once")
	assert.Greater(t, z.PerIteration, 1.0)

	tmp := t.TempDir()
	// The module's own instructions per operation (the spin included):
	// the allocator's, which move by about a thousand instructions per
	// operation between runs, are left out.
	count := func(name, overlay string) float64 {
		bin := filepath.Join(tmp, name+".test")
		require.NoError(t, mutate.Build(ctx, dir, cmpfixture.Package, bin, overlay, os.Environ()))
		v, err := measure.CountInstructions(ctx, measure.Options{Binary: bin, Dir: filepath.Join(dir, "work"), Name: cmpfixture.HotServe, N1: 10, N2: 110, Env: os.Environ(), Keep: filepath.Join(tmp, name)})
		require.NoError(t, err)
		p, err := opprof.Instructions(opprof.NewResolver(), v.Files[0], v.Files[1], v.N1, v.N2)
		require.NoError(t, err)
		sum := 0.0
		for f, n := range p.Funcs() {
			if strings.HasPrefix(f, cmpfixture.Module+"/") {
				sum += n
			}
		}
		return sum
	}
	base := count("base", "")
	overlay, err := s.Overlay(tmp, z.Iterations(0.10), "", "")
	require.NoError(t, err)
	mutant := count("mutant", overlay)
	added, want := mutant-base, 0.10*z.SelfPerOp
	t.Logf("BenchmarkServe's module code %.0f -> %.0f instructions/op: added %.0f, want %.0f", base, mutant, added, want)
	assert.InEpsilon(t, want, added, 0.005)
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain").CombinedOutput()
	require.NoError(t, err)
	assert.Empty(t, string(out), "the source tree is untouched")
}

// TestRunEachNeedsAFunction: without a function RunEach runs nothing and
// names both ways to give one.
func TestRunEachNeedsAFunction(t *testing.T) {
	logged := 0
	res, err := mutate.RunEach(context.Background(), nil, mutate.Options{Slowdown: 0.1}, func(string, ...any) { logged++ })
	require.ErrorIs(t, err, mbopt.ErrInput)
	assert.Contains(t, err.Error(), "Config.Func is required")
	assert.Contains(t, err.Error(), "Config.Predictions N")
	assert.Nil(t, res)
	assert.Zero(t, logged, "nothing ran")
}

// TestTooFewMeasurements: a comparison planned with fewer measurements per
// version than a verdict needs (8 at 99% confidence) can catch no mutant
// (2 trials of 3 runs moved BenchmarkEncode +1.50% [+1.49%, +1.52%] and
// called it unchanged, a prediction "missed"), so Run and the score refuse
// it before anything is found, built or sized, naming the flags that plan
// it; the default schedule (3 trials of 3 runs) and 1 trial of 8 pass.
func TestTooFewMeasurements(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    compare.Settings
		want string // "" passes
	}{
		{"default schedule", compare.Settings{Metric: measure.Instructions}, ""},
		{"one trial of eight", compare.Settings{Metric: measure.Instructions, Trials: 1, Runs: 8}, ""},
		{"two trials of three", compare.Settings{Metric: measure.Instructions, Trials: 2, Runs: 3}, "plan 6 measurements per version, under the 8 a verdict needs"},
		{"three counts of two", compare.Settings{Metric: measure.Instructions, Trials: 1, Runs: 2, Count: 3}, "plan 6 measurements"},
		{"time, one run", compare.Settings{Metric: measure.Time, Trials: 1, Runs: 1, Count: 5}, "plan 5 measurements"},
		{"one measurement", compare.Settings{Metric: measure.Instructions, Trials: 1, Runs: 1}, "plan 1 measurement per version"},
		{"lower confidence", compare.Settings{Metric: measure.Instructions, Trials: 2, Runs: 3, Confidence: 0.95}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			co := compare.Options{Dir: filepath.Join(t.TempDir(), "missing"), Settings: tc.s}
			err := mutate.ScoreOptions{Predictions: 1, Mutants: mutate.Options{Compare: co}}.Check()
			_, runErr := mutate.Run(context.Background(), mutate.Options{Func: "example.com/m/p.F", Slowdown: 0.1, Compare: co})
			if tc.want == "" {
				assert.NoError(t, err)
				assert.NotContains(t, fmt.Sprint(runErr), "measurements per version", "Run goes on to find the function")
				return
			}
			for _, e := range []error{err, runErr} {
				require.ErrorIs(t, e, mbopt.ErrInput)
				assert.ErrorContains(t, e, tc.want)
				assert.ErrorContains(t, e, "Config.Settings.Trials × Config.Settings.Runs × Config.Settings.Count")
			}
		})
	}
}
