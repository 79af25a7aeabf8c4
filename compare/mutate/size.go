package mutate

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/internal/opprof"
	"github.com/mbopt/mbopt/internal/tmpdir"
	"github.com/mbopt/mbopt/relevance/measure"
)

// probeIterations is the busy loop's length in the probe mutant that
// measures the cost of one iteration and the calls per operation.
const probeIterations = 1000

// sizeN1 and sizeN2 are the iteration counts of the sizing's counts: a
// hundred operations apart, so the allocator's occasional refills, which
// the collector being off does not stop, average out.
const sizeN1, sizeN2 = 10, 110

// SizeOptions say which benchmark measures a function's cost.
type SizeOptions struct {
	// ModuleDir is the module's root directory.
	ModuleDir string
	// BenchPackage is the import path of the benchmark's package.
	BenchPackage string
	// Benchmark is the benchmark's full name ("BenchmarkServe"); it must
	// run the function in its loop.
	Benchmark string
	// Env is the environment of the builds and runs; nil means the
	// process's.
	Env []string
}

// A Sizing is how a mutant's busy loop was sized: what the function costs
// and what one iteration of the loop costs, in instructions.
type Sizing struct {
	// SelfPerOp is the function's own instructions per operation of the
	// benchmark, its inlined copies included.
	SelfPerOp float64 `json:"self_per_op"`
	// CallsPerOp is how often the benchmark calls it per operation.
	CallsPerOp float64 `json:"calls_per_op"`
	// PerCall is its own instructions per call: SelfPerOp / CallsPerOp.
	PerCall float64 `json:"per_call"`
	// PerIteration is the busy loop's instructions per iteration.
	PerIteration float64 `json:"per_iteration"`
	// Fixed is the busy loop's instructions per call with no iteration
	// (its call, entry and return), which matters for a function of a
	// few dozen instructions.
	Fixed float64 `json:"fixed"`
}

// Iterations returns the busy loop's length that makes each call cost
// slowdown × PerCall instructions more than the unchanged function (the
// loop's Fixed cost counted in), rounded to the nearest iteration (at
// least 1 for a positive slowdown).
func (z Sizing) Iterations(slowdown float64) int {
	if slowdown <= 0 || z.PerIteration <= 0 {
		return 0
	}
	return max(1, int(math.Round((slowdown*z.PerCall-z.Fixed)/z.PerIteration)))
}

// Slowdown returns the slowdown a busy loop of iterations iterations adds
// to each call, as a share of PerCall: more than asked for when the
// function is so small that one call of the loop already costs more (a
// loop runs at least one iteration).
func (z Sizing) Slowdown(iterations int) float64 {
	if z.PerCall <= 0 {
		return 0
	}
	return (z.Fixed + float64(iterations)*z.PerIteration) / z.PerCall
}

// Size measures, under Valgrind, what the site's function costs per call
// in the benchmark of o and what one iteration of the busy loop costs: it
// counts the unchanged benchmark's instructions line by line at two
// iteration counts (the function's own share, inlined copies included),
// then two probe mutants the same way under Callgrind, whose busy loop
// runs no iteration and probeIterations per call (the loop's calls per
// operation are the function's calls; its count per call, the loop's
// fixed cost and, over the difference, an iteration's). A benchmark that
// never calls the function is an error naming both.
func Size(ctx context.Context, s *Site, o SizeOptions) (Sizing, error) {
	tmp, remove, err := tmpdir.Make("mbopt-mutate-")
	if err != nil {
		return Sizing{}, err
	}
	defer remove()
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	dir, _, err := packageDir(ctx, o.ModuleDir, o.BenchPackage, env)
	if err != nil {
		return Sizing{}, err
	}
	count := func(name, overlay string, tool measure.Tool) (*opprof.Profile, measure.Value, error) {
		bin := filepath.Join(tmp, name+".test")
		if err := Build(ctx, o.ModuleDir, o.BenchPackage, bin, overlay, env); err != nil {
			return nil, measure.Value{}, err
		}
		v, err := measure.CountInstructions(ctx, measure.Options{Binary: bin, Dir: dir, Name: o.Benchmark, Env: env, N1: sizeN1, N2: sizeN2, Tool: tool, Keep: filepath.Join(tmp, name)})
		if err != nil {
			return nil, v, err
		}
		p, err := opprof.Instructions(opprof.NewResolver(), v.Files[0], v.Files[1], v.N1, v.N2)
		return p, v, err
	}
	base, _, err := count("base", "", measure.Callgrind)
	if err != nil {
		return Sizing{}, err
	}
	// Two probes of the mutant's shape: with no iterations (the loop's
	// fixed cost, and the drift of the code around its call) and with
	// probeIterations (the cost of an iteration).
	probes := make([]map[string]float64, 2)
	var calls float64
	spin := s.Package + "." + SpinName
	for i, n := range []int{0, probeIterations} {
		pdir := filepath.Join(tmp, fmt.Sprint("probe", i))
		if err := os.Mkdir(pdir, 0o755); err != nil {
			return Sizing{}, err
		}
		overlay, err := s.Overlay(pdir, n, "", "")
		if err != nil {
			return Sizing{}, err
		}
		p, pv, err := count(fmt.Sprint("probe", i), overlay, measure.Callgrind)
		if err != nil {
			return Sizing{}, err
		}
		if calls, err = callsPerOp(pv, spin); err != nil {
			return Sizing{}, fmt.Errorf("%s does not run %s: %w", o.Benchmark, s.Function, err)
		}
		probes[i] = p.Funcs()
	}
	z := Sizing{SelfPerOp: base.Funcs()[s.Function], CallsPerOp: calls}
	if z.SelfPerOp <= 0 {
		return Sizing{}, fmt.Errorf("%s calls %s %.3g times per operation, but its own instructions per operation are %.3g: nothing to slow down", o.Benchmark, s.Function, z.CallsPerOp, z.SelfPerOp)
	}
	z.PerCall = z.SelfPerOp / calls
	z.Fixed = probes[0][spin] / calls
	z.PerIteration = (probes[1][spin]/calls - z.Fixed) / probeIterations
	return z, nil
}

// callsPerOp returns how often fn is called per operation in the two
// Callgrind runs of v (their kept files).
func callsPerOp(v measure.Value, fn string) (float64, error) {
	var n [2]int64
	for i, f := range v.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		g, err := measure.ReadGraph(bytes.NewReader(data))
		if err != nil {
			return 0, fmt.Errorf("%s: %w", f, err)
		}
		n[i] = g.Calls(fn)
	}
	if n[1] <= n[0] {
		return 0, fmt.Errorf("%s is not called in the benchmark's loop", fn)
	}
	return float64(n[1]-n[0]) / float64(v.N2-v.N1), nil
}

// Build builds the test binary of package pkg of the module in dir into
// out, with the go build overlay file overlay when not "".
func Build(ctx context.Context, dir, pkg, out, overlay string, env []string) error {
	args := []string{"test", "-c", "-o", out}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go test -c %s: %v\n%s", pkg, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// packageDir returns the directory of package pkg of the module in dir,
// and the module's path.
func packageDir(ctx context.Context, dir, pkg string, env []string) (pkgDir, module string, err error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.Dir}} {{.Module.Path}}", "--", pkg)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("go list %s in %s: %w", pkg, dir, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return "", "", fmt.Errorf("go list %s in %s: %q", pkg, dir, out)
	}
	return f[0], f[1], nil
}
