package measure

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/internal/tmpdir"
)

// A Tool is the Valgrind tool that counts instructions.
type Tool string

// The tools.
const (
	// Cachegrind counts the whole process's instructions (--cache-sim=no):
	// the default, faster than Callgrind.
	Cachegrind Tool = "cachegrind"
	// Callgrind counts the same and records the call graph, with
	// inclusive counts per function ([ReadGraph]).
	Callgrind Tool = "callgrind"
)

// ErrNoValgrind is returned by [CountInstructions] when valgrind is not
// installed.
var ErrNoValgrind = errors.New("valgrind not found in PATH: the instructions metric counts instructions under Valgrind; install it (Debian/Ubuntu: apt-get install valgrind, the package valgrind) or pick another metric with --metric time or --metric cpu")

// InstructionsTarget is the native time of the benchmark at the higher
// count that [CountInstructions] aims for when its instructions per
// operation are not known yet: Valgrind runs it 30 to 100 times slower.
const InstructionsTarget = 20 * time.Millisecond

// InstructionsBudget is how many instructions the benchmark runs at the
// higher count once its instructions per operation are known
// (Options.InstrPerOp). The runtime's own work (scheduler, sysmon, the
// forced collections), which grows with the process's wall time, moves a
// process's count by tens of thousands of instructions whatever the count,
// so a larger budget divides it by more operations, while a process's
// cost is mostly Valgrind's start-up: on a loaded 2-core machine, five
// measurements each of benchmarks of 60 to 160 µs/op spread by 0.10 to
// 0.23% at 5e7 and 0.04 to 0.05% at 5e8, a process taking 0.45 to 0.5 s
// of CPU time at 5e7, 0.55 to 1.0 s at 5e8.
const InstructionsBudget = 5e8

// FindValgrind returns the path of the valgrind command name ("" means
// "valgrind" in PATH), or [ErrNoValgrind].
func FindValgrind(name string) (string, error) {
	if name == "" {
		name = "valgrind"
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", ErrNoValgrind
	}
	return p, nil
}

func (o Options) valgrind() (string, error) { return FindValgrind(o.Valgrind) }

func (o Options) tool() Tool {
	if o.Tool == "" {
		return Cachegrind
	}
	return o.Tool
}

// CountInstructions counts the instructions of one operation of the benchmark:
// it runs the test binary under Valgrind twice, at N1 and N2 iterations
// (-test.benchtime N1x and N2x, -test.cpu 1), with GOMAXPROCS=1, the
// collector off (GOGC=off) behind the GOMEMLIMIT guard and GODEBUG
// settings that make the runs repeatable (see the package documentation),
// and returns (I(N2) − I(N1)) / (N2 − N1), where I is the whole process's
// count: start-up, setup and the run at b.N = 1 cancel out. When it
// chooses the counts (N1 and N2 unset) and the difference carries less
// than half of InstructionsBudget, it runs the higher count again, up to
// three times, sized by the difference measured (Value.N2 is the last
// count). Cachegrind
// (the default) is faster; Callgrind counts the same and its output files
// (Options.Keep) hold the call graph.
//
// It returns [ErrNoValgrind] when valgrind is missing, and an error naming
// the benchmark, with the output's tail, when a process fails.
func CountInstructions(ctx context.Context, o Options) (Value, error) {
	vg, err := o.valgrind()
	if err != nil {
		return Value{}, err
	}
	n1, n2, err := o.instructionCounts()
	if err != nil {
		return Value{}, err
	}
	tool := o.tool()
	if tool != Callgrind && tool != Cachegrind {
		return Value{}, fmt.Errorf("measure: unknown Valgrind tool %q: valid values are cachegrind, callgrind", tool)
	}
	v := Value{N1: n1, N2: n2}
	var totals [2]float64
	count := func(i, n int) error {
		profile, guard, alloc, err := o.valgrindRun(ctx, vg, tool, n)
		if err != nil {
			return err
		}
		v.GuardFired = v.GuardFired || guard
		if i == 1 {
			v.Allocs = alloc
		}
		if totals[i], err = total(profile); err != nil {
			return fmt.Errorf("%s: %s output: %w", o.Name, tool, err)
		}
		if o.Keep != "" {
			// n1 and n2, not the counts, so the next measurement replaces
			// these files; the file's "cmd:" line has the count.
			dst := fmt.Sprintf("%s.n%d.%s.out", o.Keep, i+1, tool)
			if err := os.WriteFile(dst, profile, 0o644); err != nil {
				return err
			}
			if i == len(v.Files) {
				v.Files = append(v.Files, dst)
			}
		}
		return nil
	}
	for i, n := range []int{n1, n2} {
		if err := count(i, n); err != nil {
			return Value{}, err
		}
	}
	// Counts chosen here come from an estimate, which can be far off: a
	// benchmark with setup before its timer has a large per-op estimate
	// from its whole function (Inspect), so the loop runs a few
	// iterations and the difference is the noise of the runtime's own
	// work, even negative. Until the difference carries half the budget,
	// the higher count runs again, sized by the difference measured (100
	// times more when it is not positive), within the counts' limits.
	auto := o.N1 == 0 && o.N2 == 0
	for round := 0; auto && round < 3 && totals[1]-totals[0] < InstructionsBudget/2; round++ {
		next := o.recount(v.N1, v.N2, totals[1]-totals[0])
		if next <= v.N2 {
			break // a limit: memory, time or 10,000,000 iterations
		}
		v.N2 = next
		if err := count(1, next); err != nil {
			return Value{}, err
		}
	}
	v.PerOp = (totals[1] - totals[0]) / float64(v.N2-v.N1)
	return v, nil
}

// recount returns the higher count that runs InstructionsBudget
// instructions in the loop, given that counts n1 and n2 differed by diff
// instructions (100 times n2 when diff is not positive), within the
// limits of [Options.instructionCounts].
func (o Options) recount(n1, n2 int, diff float64) int {
	want := float64(n2) * 100
	if diff > 0 {
		want = float64(n1) + math.Ceil(InstructionsBudget/(diff/float64(n2-n1)))
	}
	return o.capped(want)
}

// valgrindRun runs the benchmark once under tool at n iterations, with
// -test.benchmem, and returns the tool's output file, whether the
// GOMEMLIMIT guard fired and the benchmark's result line (its B/op and
// allocs/op are a normal run's: the collector's being off changes what is
// collected, not what is allocated; nil when the line is missing).
// Callgrind writes names and positions uncompressed, so [ReadGraph] can
// read its calls.
func (o Options) valgrindRun(ctx context.Context, vg string, tool Tool, n int) ([]byte, bool, *Allocation, error) {
	// A directory an interrupt or a killed run does not leave behind.
	tmp, removeTmp, err := tmpdir.Make("mbopt-measure-")
	if err != nil {
		return nil, false, nil, err
	}
	defer removeTmp()
	out := filepath.Join(tmp, string(tool)+".out")
	// --vgdb=no: no gdbserver, so no FIFOs in /tmp that a killed run
	// would leave behind.
	args := []string{"--tool=" + string(tool), "--vgdb=no", "--log-file=" + filepath.Join(tmp, "valgrind.log")}
	if tool == Callgrind {
		args = append(args, "--callgrind-out-file="+out, "--compress-strings=no", "--compress-pos=no")
	} else {
		args = append(args, "--cachegrind-out-file="+out, "--cache-sim=no")
	}
	args = append(append(args, o.Binary), append(o.args(n, false), "-test.benchmem")...)
	res, err := o.run(ctx, countingEnv(o.Env, o.memLimit(), true), vg, args...)
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(tmp, "valgrind.log"))
		if len(log) > 0 && ctx.Err() == nil {
			err = fmt.Errorf("%w\nvalgrind: %s", err, tail(log, 6))
		}
		return nil, false, nil, err
	}
	if !ran(res.Output, o.Name) {
		return nil, false, nil, errNotRun(o.Name, res.Output)
	}
	profile, err := os.ReadFile(out)
	if err != nil {
		return nil, false, nil, fmt.Errorf("%s: reading %s's output: %w", o.Name, tool, err)
	}
	var alloc *Allocation
	as, _ := o.allocations(withoutGCTrace(res.Output))
	for i := range as {
		if as[i].Name == o.Name {
			alloc = &as[i]
		}
	}
	return profile, guardFired(res.Output), alloc, nil
}

// An Inspection is what one Callgrind run tells about a benchmark.
type Inspection struct {
	// Function is the function that runs the benchmark's loop.
	Function Function
	// LessStable gives the reasons the benchmark varies more than
	// deterministic code between processes, sorted: "starts goroutines",
	// "uses b.RunParallel", "uses math/rand/v2's global functions".
	LessStable []string
	// File is the Callgrind output file kept (Options.Keep +
	// ".callgrind.out"), with the call graph and inclusive counts.
	File string
	// InstrPerOp estimates the instructions per operation: the function's
	// inclusive count over the 1 + N operations of the run (Go runs the
	// benchmark at b.N = 1 first), setup included. Options.InstrPerOp
	// takes it to choose the counts of the first measurement.
	InstrPerOp float64
}

// Inspect runs the benchmark once under Callgrind at N1 iterations (2 when
// N1 is not set), reads the call graph and says which function runs the
// benchmark's loop ([Graph.BenchFunc]) and why the benchmark may be less
// stable: it starts goroutines (their scheduling moves the count), calls
// b.RunParallel, or uses math/rand/v2's global functions, whose source
// GODEBUG cannot seed. One inspection per benchmark and binary is enough.
func Inspect(ctx context.Context, o Options) (Inspection, error) {
	vg, err := o.valgrind()
	if err != nil {
		return Inspection{}, err
	}
	n := max(o.N1, 2)
	profile, _, _, err := o.valgrindRun(ctx, vg, Callgrind, n)
	if err != nil {
		return Inspection{}, err
	}
	g, err := ReadGraph(bytes.NewReader(profile))
	if err != nil {
		return Inspection{}, fmt.Errorf("%s: reading Callgrind's call graph: %w", o.Name, err)
	}
	f, ok := g.BenchFunc(o.Name)
	if !ok {
		return Inspection{}, fmt.Errorf("%s: no function of the benchmark under testing.(*B).runN in Callgrind's call graph", o.Name)
	}
	in := Inspection{Function: f, LessStable: g.lessStable(f), InstrPerOp: g.Inclusive(f.Name) / float64(1+n)}
	if o.Keep != "" {
		in.File = o.Keep + ".callgrind.out"
		if err := os.WriteFile(in.File, profile, 0o644); err != nil {
			return Inspection{}, err
		}
	}
	return in, nil
}

// ran reports whether out holds a result line of benchmark name (gctrace
// lines, which may cut one, left out).
func ran(out []byte, name string) bool {
	// Only the benchmark's own results count, its result line joined
	// again when its own output cut it (testbin.ParseOutput).
	res := testbin.ParseOutput(withoutGCTrace(out), benchname.Top(name)).Results
	for l := range strings.SplitSeq(string(res), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == name {
			if _, err := strconv.Atoi(f[1]); err == nil {
				return true
			}
		}
	}
	return false
}

// total returns the event total of a Callgrind or Cachegrind output file:
// its "totals:" line, else its "summary:" line.
func total(profile []byte) (float64, error) {
	var summary string
	sc := bufio.NewScanner(bytes.NewReader(profile))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if v, ok := strings.CutPrefix(l, "totals:"); ok {
			return parseCount(v)
		}
		if v, ok := strings.CutPrefix(l, "summary:"); ok {
			summary = v
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if summary == "" {
		return 0, errors.New("no totals or summary line")
	}
	return parseCount(summary)
}

func parseCount(s string) (float64, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, errors.New("an empty total")
	}
	n, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("total %q: %w", f[0], err)
	}
	return float64(n), nil
}

// A Function is the function that runs a benchmark's loop, as
// [Graph.BenchFunc] finds it.
type Function struct {
	// Name is the function's symbol, as Callgrind names it.
	Name string
	// Parallel is set when the benchmark calls b.RunParallel and Name is
	// the body it passes.
	Parallel bool
}

// A Graph is the call graph of a Callgrind output file.
type Graph struct {
	// calls[caller][callee] counts calls, recursion levels merged.
	calls map[string]map[string]int64
	// inclusive[caller][callee] is the inclusive count of those calls.
	inclusive map[string]map[string]float64
	// self is each function's own count: its cost lines that are not a
	// call's.
	self map[string]float64
}

// recursion is Callgrind's suffix for a recursion level, as in "f'2".
var recursion = regexp.MustCompile(`'\d+$`)

// ReadGraph reads the calls of a Callgrind output file written with
// uncompressed names (--compress-strings=no --compress-pos=no), with
// their counts and inclusive instruction counts.
func ReadGraph(r io.Reader) (Graph, error) {
	g := Graph{calls: map[string]map[string]int64{}, inclusive: map[string]map[string]float64{}, self: map[string]float64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var fn, cfn string
	inCall := false
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "fn="):
			fn = recursion.ReplaceAllString(l[3:], "")
		case strings.HasPrefix(l, "cfn="):
			cfn = recursion.ReplaceAllString(l[4:], "")
		case strings.HasPrefix(l, "calls="):
			f := strings.Fields(l[6:])
			if len(f) == 0 {
				return g, fmt.Errorf("bad line %q", l)
			}
			n, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return g, fmt.Errorf("bad line %q", l)
			}
			if g.calls[fn] == nil {
				g.calls[fn] = map[string]int64{}
				g.inclusive[fn] = map[string]float64{}
			}
			g.calls[fn][cfn] += n
			inCall = true
		case inCall:
			// The line after calls= is the call's position and inclusive cost.
			inCall = false
			f := strings.Fields(l)
			if len(f) < 2 {
				return g, fmt.Errorf("bad cost line %q after a call", l)
			}
			c, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return g, fmt.Errorf("bad cost line %q after a call", l)
			}
			g.inclusive[fn][cfn] += c
		case l != "" && (l[0] >= '0' && l[0] <= '9' || l[0] == '+' || l[0] == '-' || l[0] == '*'):
			// A cost line of fn's own code: position, then Ir.
			f := strings.Fields(l)
			if len(f) < 2 {
				continue // a position without a cost
			}
			c, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				return g, fmt.Errorf("bad cost line %q", l)
			}
			g.self[fn] += c
		}
	}
	return g, sc.Err()
}

// Self returns fn's own instruction count: the instructions of its code,
// not of the functions it calls (recursion levels merged).
func (g Graph) Self(fn string) float64 { return g.self[fn] }

// Calls returns how many times fn was called, from every caller.
func (g Graph) Calls(fn string) int64 {
	var n int64
	for _, callees := range g.calls {
		n += callees[fn]
	}
	return n
}

// Inclusive returns the inclusive instruction count of every call of fn.
func (g Graph) Inclusive(fn string) float64 {
	var sum float64
	for _, callees := range g.inclusive {
		sum += callees[fn]
	}
	return sum
}

// BenchFunc finds the function that runs benchmark name's loop, from the
// calls of testing.(*B).runN, which calls each benchmark's function. The
// top-level benchmark's function is the callee named after it
// (pkg.BenchmarkX); for a top-level benchmark that is the answer. For a
// sub-benchmark the candidates are the other callees, closures of the
// top-level function (pkg.BenchmarkX.func1, …) first, else those outside
// the standard library; the sub-benchmark's own function is called once
// per run (at b.N = 1 and at N) while its parents are called once, so it
// takes the candidate called most often, ties broken by the longer name (a
// nested closure is named after the one it is in), then by name. When the
// function calls testing.(*B).RunParallel, the body
// testing.(*B).RunParallel.func1 calls is taken instead, and Parallel is
// set (also when only the body's name, a closure of the function, shows
// it).
func (g Graph) BenchFunc(name string) (Function, bool) {
	fn, ok := g.benchFunc(name)
	if !ok {
		return Function{}, false
	}
	// Go's stack switches (more of them on a loaded machine, where the
	// scheduler preempts more) can make Callgrind file a call under the
	// wrong caller. So RunParallel counts when fn, a closure of fn or a
	// function of the standard library (where a misfiled call lands) calls
	// it, and its body is found by name too: a closure of fn that
	// RunParallel's goroutine calls, else a closure of fn called from
	// anywhere.
	parallel := false
	for caller, callees := range g.calls {
		if callees["testing.(*B).RunParallel"] > 0 && (caller == fn || strings.HasPrefix(caller, fn+".") || isStd(caller)) {
			parallel = true
		}
	}
	body, ok := pick(g.callees("testing.(*B).RunParallel.func1", fn+"."))
	if !parallel && !ok {
		return Function{Name: fn}, true
	}
	if !ok {
		body, ok = pick(g.callees("testing.(*B).RunParallel.func1", ""))
	}
	if !ok {
		var cs []cand
		for caller := range g.calls {
			cs = append(cs, g.callees(caller, fn+".")...)
		}
		body, ok = pick(cs)
	}
	if !ok {
		body = fn
	}
	return Function{Name: body, Parallel: true}, true
}

// benchFunc returns the function of benchmark name, before RunParallel.
func (g Graph) benchFunc(name string) (string, bool) {
	top, _, sub := strings.Cut(name, "/")
	var tops []string
	for callee := range g.calls["testing.(*B).runN"] {
		if strings.HasSuffix(callee, "."+top) {
			tops = append(tops, callee)
		}
	}
	if len(tops) == 0 {
		return "", false
	}
	slices.Sort(tops)
	t := tops[0]
	if !sub {
		return t, true
	}
	if fn, ok := pick(g.callees("testing.(*B).runN", t+".")); ok {
		return fn, true
	}
	var user []cand
	for _, c := range g.callees("testing.(*B).runN", "") {
		if c.name != t && !isStd(c.name) {
			user = append(user, c)
		}
	}
	return pick(user)
}

// lessStable returns why the benchmark whose function is f varies more
// than deterministic code, sorted: it calls b.RunParallel, a function it
// reaches (through any package but the runtime) starts a goroutine, or it
// reaches math/rand/v2's global source, which GODEBUG=randautoseed=0 does
// not seed.
func (g Graph) lessStable(f Function) []string {
	var why []string
	if f.Parallel {
		why = append(why, "uses b.RunParallel")
	}
	seen := map[string]bool{f.Name: true}
	queue := []string{f.Name}
	var goroutines, rand bool
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		if strings.HasPrefix(fn, "math/rand/v2.(*runtimeSource)") {
			rand = true
		}
		for callee := range g.calls[fn] {
			if callee == "runtime.newproc" && !strings.HasPrefix(fn, "testing.") {
				goroutines = true
			}
			if !seen[callee] && !strings.HasPrefix(callee, "runtime.") {
				seen[callee] = true
				queue = append(queue, callee)
			}
		}
	}
	if goroutines {
		why = append(why, "starts goroutines")
	}
	if rand {
		why = append(why, "uses math/rand/v2's global functions")
	}
	slices.Sort(why)
	return why
}

// isStd reports whether the symbol looks like one of the standard
// library: its import path's first element has no dot.
func isStd(sym string) bool {
	first, _, slash := strings.Cut(sym, "/")
	if !slash {
		first, _, _ = strings.Cut(sym, ".")
	}
	return !strings.Contains(first, ".")
}

// A cand is a callee and how often it was called.
type cand struct {
	name string
	n    int64
}

// callees returns the callees of caller whose names start with prefix
// ("" for all), leaving out packages testing and runtime.
func (g Graph) callees(caller, prefix string) []cand {
	var cs []cand
	for callee, n := range g.calls[caller] {
		if strings.HasPrefix(callee, prefix) && !strings.HasPrefix(callee, "testing.") && !strings.HasPrefix(callee, "runtime.") {
			cs = append(cs, cand{callee, n})
		}
	}
	return cs
}

// pick returns the candidate called most often, ties broken by the longer
// name, then by name.
func pick(cs []cand) (string, bool) {
	if len(cs) == 0 {
		return "", false
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		if c := cmp.Compare(len(b.name), len(a.name)); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	return cs[0].name, true
}
