package measure

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/testbin"
)

// CPUTarget is the native time of the benchmark at the higher count that
// [CPUTime] aims for: enough that the process's start-up, which the difference
// cancels only on average, is small beside it.
const CPUTarget = 250 * time.Millisecond

// CPUTime measures the CPU time of one operation of the benchmark: it runs the
// test binary twice, at N1 and N2 iterations (-test.cpu 1, GOMAXPROCS=1,
// the same GODEBUG settings as [CountInstructions], the collector on), takes
// each process's user plus system CPU time from its resource usage, and
// returns (C(N2) − C(N1)) / (N2 − N1) in seconds. The counts aim for
// CPUTarget at N2 by Options.CPUPerOp when an earlier measurement gave it,
// else by NsPerOp. NotCPU is set when the
// process waited at least once every other operation (voluntary context
// switches, where the system reports them) and its wall time grew more
// than its CPU time by half: a benchmark that sleeps or does I/O, whose
// time this metric does not see.
func CPUTime(ctx context.Context, o Options) (Value, error) {
	if o.CPUPerOp > 0 && o.N1 == 0 && o.N2 == 0 {
		o.NsPerOp = o.CPUPerOp * 1e9
	}
	n1, n2, err := o.Counts(CPUTarget)
	if err != nil {
		return Value{}, err
	}
	v := Value{N1: n1, N2: n2}
	env := countingEnv(o.Env, o.memLimit(), false)
	var cpu, wall [2]time.Duration
	var waits [2]int64
	waitsKnown := true
	for i, n := range []int{n1, n2} {
		res, err := o.run(ctx, env, o.Binary, o.args(n, false)...)
		if err != nil {
			return Value{}, err
		}
		if !ran(res.Output, o.Name) {
			return Value{}, errNotRun(o.Name, res.Output)
		}
		cpu[i] = res.State.UserTime() + res.State.SystemTime()
		wall[i] = res.Wall
		var ok bool
		if waits[i], ok = voluntarySwitches(res.State); !ok {
			waitsKnown = false
		}
	}
	d := float64(n2 - n1)
	v.PerOp = (cpu[1] - cpu[0]).Seconds() / d
	dcpu, dwall := (cpu[1] - cpu[0]).Seconds(), (wall[1] - wall[0]).Seconds()
	v.NotCPU = waitsKnown && float64(waits[1]-waits[0]) >= d/2 && dwall > 1.5*dcpu
	return v, nil
}

// An Allocation is one benchmark's result line from a normal run.
type Allocation struct {
	// Name is the full benchmark name without the -GOMAXPROCS suffix.
	Name string
	// Iterations is the b.N of the line.
	Iterations int
	// NsPerOp, BytesPerOp and AllocsPerOp are the line's ns/op, B/op and
	// allocs/op.
	NsPerOp, BytesPerOp, AllocsPerOp float64
}

// Allocations runs the benchmark (and, for a parent, each sub-benchmark
// it runs; Options.Pattern selects others) normally with -test.benchmem
// at benchtime (such as "100ms" or "50x"), -test.count Options.Count,
// -test.cpu 1, GOMAXPROCS=1 and testbin.BenchArgs, and returns each result
// line in output order, with the process's output. B/op and allocs/op are
// nearly deterministic, so one run compares them; NsPerOp chooses the
// counts of [CountInstructions] and [CPUTime].
//
// Only results of the benchmark's family count (the top-level benchmark
// of Options.Name and its sub-benchmarks, testbin.ParseOutput): lines the
// benchmark prints that look like other benchmarks' results are not
// results. When the process fails, Allocations returns the results of the
// benchmarks that finished before, the output (testbin.ParseOutput says
// which benchmark failed) and the error.
func Allocations(ctx context.Context, o Options, benchtime string) ([]Allocation, []byte, error) {
	args := o.args(1, true)
	for i := range args {
		if args[i] == "-test.benchtime" {
			args[i+1] = benchtime
		}
	}
	res, runErr := o.run(ctx, countingEnv(o.Env, o.memLimit(), false), o.Binary, args...)
	if ctx.Err() != nil {
		return nil, nil, runErr
	}
	as, err := o.allocations(res.Output)
	if err != nil {
		return nil, nil, err
	}
	if runErr != nil {
		return as, res.Output, runErr
	}
	if len(as) == 0 {
		return nil, res.Output, errNotRun(o.Name, res.Output)
	}
	return as, res.Output, nil
}

// allocations reads the result lines of the benchmark's own output
// (testbin.ParseOutput) in out, in order.
func (o Options) allocations(out []byte) ([]Allocation, error) {
	var as []Allocation
	r := benchfmt.NewReader(bytesReader(testbin.ParseOutput(out, benchname.Top(o.Name)).Results), o.Name)
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		// benchfmt drops the "Benchmark" prefix; -test.cpu 1 prints no
		// -GOMAXPROCS suffix.
		a := Allocation{Name: "Benchmark" + string(res.Name.Full()), Iterations: res.Iters}
		a.NsPerOp, _ = res.Value("sec/op")
		a.NsPerOp *= 1e9
		a.BytesPerOp, _ = res.Value("B/op")
		a.AllocsPerOp, _ = res.Value("allocs/op")
		as = append(as, a)
	}
	return as, r.Err()
}

// ProfileTarget is the native time of the benchmark that [CPUProfile] aims
// for: about 200 samples at the profiler's 100 Hz.
const ProfileTarget = 2 * time.Second

// CPUProfile runs the benchmark once under the CPU profiler
// (-test.cpuprofile path) at n iterations, with the settings of
// [CPUTime] (-test.cpu 1, GOMAXPROCS=1, the same GODEBUG settings). n is
// Options.N2 when set, else the higher count of [Options.Counts] at
// ProfileTarget. The profile covers the whole process: go test runs the
// benchmark at b.N = 1 and then at n, so it holds n + 1 operations and
// the process's start-up and setup; two profiles at the same n differ by
// the operations' work only.
func CPUProfile(ctx context.Context, o Options, path string) (n int, err error) {
	n = o.N2
	if n == 0 {
		if _, n, err = o.Counts(ProfileTarget); err != nil {
			return 0, err
		}
	}
	if n < 1 {
		return 0, fmt.Errorf("measure: iteration count %d: need at least 1", n)
	}
	args := append(o.args(n, false), "-test.cpuprofile", path)
	res, err := o.run(ctx, countingEnv(o.Env, o.memLimit(), false), o.Binary, args...)
	if err != nil {
		return 0, err
	}
	if !ran(res.Output, o.Name) {
		return 0, errNotRun(o.Name, res.Output)
	}
	return n, nil
}
