package measure

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/testbin"
)

// Options say which benchmark to measure and how. Binary, Dir and Name are
// required; the zero value of every other field is a documented default.
type Options struct {
	// Binary is the test binary (go test -c).
	Binary string
	// Dir is its working directory, the package's directory.
	Dir string
	// Name is the benchmark's full name as go test prints it, such as
	// "BenchmarkQuery/sum" (sub-benchmarks included, no -GOMAXPROCS
	// suffix). It is matched exactly.
	Name string
	// Pattern, when not empty, is the -test.bench pattern of [Allocations]
	// instead of Name's exact pattern, such as a top-level benchmark's
	// pattern that selects some of its sub-benchmarks.
	Pattern string
	// Count is the -test.count of [Allocations]; 0 means 1.
	Count int
	// Env is the environment of the process (such as os.Environ() plus
	// extra variables); the measurement's own settings are added after it.
	Env []string
	// N1 and N2 are the two iteration counts (-test.benchtime N1x and
	// N2x), 1 < N1 < N2. Zero chooses them from NsPerOp and BytesPerOp
	// (see [Options.Counts]).
	N1, N2 int
	// NsPerOp is the benchmark's time per operation from a normal run
	// ([Allocations]), to choose the counts; 0 means unknown.
	NsPerOp float64
	// BytesPerOp is the benchmark's allocation per operation, which bounds
	// N2 while the collector is off; 0 means unknown or none.
	BytesPerOp float64
	// InstrPerOp is the benchmark's instructions per operation from an
	// earlier measurement; when set, [CountInstructions] chooses the
	// counts by InstructionsBudget instead of time (see [Options.Counts]).
	InstrPerOp float64
	// CPUPerOp is the benchmark's CPU seconds per operation from an
	// earlier measurement; when set, [CPUTime] chooses the counts by it
	// instead of NsPerOp, which a normal run on a loaded machine measures
	// in wall time, too high.
	CPUPerOp float64
	// MemLimit is the GOMEMLIMIT guard while the collector is off, in
	// bytes; 0 means DefaultMemLimit.
	MemLimit int64
	// Tool is the Valgrind tool for CountInstructions; "" means Cachegrind.
	Tool Tool
	// Keep, when not empty, keeps Valgrind's output files of both counts
	// as Keep + ".n1.<tool>.out" and ".n2.<tool>.out" (their "cmd:" line
	// gives the -test.benchtime); they replace the files of an earlier
	// measurement with the same Keep.
	Keep string
	// Valgrind is the valgrind command; "" means "valgrind" found in PATH.
	Valgrind string
	// Timeout bounds each process; 0 means 10 minutes.
	Timeout time.Duration
}

// DefaultMemLimit is the GOMEMLIMIT of a run with the collector off: 1 GiB.
const DefaultMemLimit = 1 << 30

// A Value is one measurement of one benchmark: the difference of two
// processes that ran it at N1 and N2 iterations, per operation.
type Value struct {
	// PerOp is the metric per operation: instructions, or CPU seconds.
	PerOp float64
	// N1 and N2 are the iteration counts of the two processes.
	N1, N2 int
	// GuardFired is set when the collector ran although it was off,
	// because the heap reached the GOMEMLIMIT guard: the count then
	// includes collection work and varies with its timing.
	GuardFired bool
	// NotCPU is set (CPU) when the benchmark's time is not CPU time: its
	// process waits (sleeps, I/O) at least once every other operation.
	NotCPU bool
	// Files are the output files kept (Options.Keep), the lower count
	// first.
	Files []string
	// Allocs is the benchmark's result line at N2 (instructions), whose
	// B/op and allocs/op are those of a normal run at N2 iterations; nil
	// when the line could not be read.
	Allocs *Allocation
}

func (o Options) timeout() time.Duration {
	if o.Timeout == 0 {
		return 10 * time.Minute
	}
	return o.Timeout
}

func (o Options) memLimit() int64 {
	if o.MemLimit == 0 {
		return DefaultMemLimit
	}
	return o.MemLimit
}

// Counts returns the iteration counts of the two processes: N1 and N2 when
// set (both must be set, 1 < N1 < N2), else N2 runs the benchmark for
// about target of its native time (NsPerOp; 100 ns when unknown), at least
// 5 and at most 10,000,000 iterations, and at most half the GOMEMLIMIT
// guard in allocations (BytesPerOp), and N1 = max(2, N2/5). Both counts
// are above 1: Go runs every benchmark once at b.N = 1 before running it
// at N, so the first run carries one-time costs the difference cancels
// only when both counts run it.
func (o Options) Counts(target time.Duration) (n1, n2 int, err error) {
	if o.N1 != 0 || o.N2 != 0 {
		if !(1 < o.N1 && o.N1 < o.N2) {
			return 0, 0, fmt.Errorf("measure: iteration counts %d and %d: need 1 < N1 < N2", o.N1, o.N2)
		}
		return o.N1, o.N2, nil
	}
	ns := o.NsPerOp
	if !(ns > 0) {
		ns = 100
	}
	return o.bounded(math.Ceil(float64(target.Nanoseconds()) / ns))
}

// InstructionCounts returns the counts [CountInstructions] starts from
// (see instructionCounts), for a caller that measures two versions of a
// benchmark at the same counts: set them as N1 and N2.
func (o Options) InstructionCounts() (n1, n2 int, err error) { return o.instructionCounts() }

// instructionCounts returns the first counts of [CountInstructions]: by
// InstructionsBudget when InstrPerOp is known (N2 runs about that many
// instructions, within [Options.bounded]; N1 = max(2, N2/10), as the lower
// count only needs to run the start-up and setup again), else
// [Options.Counts] at InstructionsTarget. The budget bounds Valgrind's
// time by itself, so no native time caps N2 then: a normal run's NsPerOp
// on a loaded machine is its wall time, several times too high, and
// capped the counts of benchmarks of 130 µs/op at 262 to 745 iterations
// instead of about 1,400, which spread their counts twice as wide.
func (o Options) instructionCounts() (n1, n2 int, err error) {
	if o.N1 != 0 || o.N2 != 0 || !(o.InstrPerOp > 0) {
		return o.Counts(InstructionsTarget)
	}
	_, n2, _ = o.bounded(math.Ceil(InstructionsBudget / o.InstrPerOp))
	return max(2, n2/10), n2, nil
}

// capped returns n within the limits of the higher instruction count: at
// most ten times InstructionsTarget of native time when NsPerOp is known,
// and those of [Options.bounded].
func (o Options) capped(n float64) int {
	if o.NsPerOp > 0 {
		n = min(n, math.Ceil(float64(10*InstructionsTarget.Nanoseconds())/o.NsPerOp))
	}
	_, n2, _ := o.bounded(n)
	return n2
}

// bounded returns the counts for a wished N2 of n: at least 5, at most
// 10,000,000, and at most half the GOMEMLIMIT guard in allocations; N1 =
// max(2, N2/5).
func (o Options) bounded(n float64) (n1, n2 int, err error) {
	if o.BytesPerOp > 0 {
		n = min(n, float64(o.memLimit()/2)/o.BytesPerOp)
	}
	n2 = int(max(5, min(n, 1e7)))
	return max(2, n2/5), n2, nil
}

// args returns the test binary's arguments for one run at n iterations,
// with testbin.BenchArgs in every run: without -test.v a benchmark that
// skips itself prints nothing, and its run could not be told from one of
// a name the binary lacks (errNotRun). The lines -test.v adds are printed
// outside the benchmark's loop, the same at both counts of a
// measurement, so its difference does not see them.
func (o Options) args(n int, benchmem bool) []string {
	pattern, count := benchname.Pattern([]string{o.Name}), 1
	if benchmem {
		// The normal run of Allocations.
		if o.Pattern != "" {
			pattern = o.Pattern
		}
		count = max(o.Count, 1)
	}
	a := []string{"-test.run", "^$", "-test.bench", pattern,
		"-test.benchtime", strconv.Itoa(n) + "x", "-test.count", strconv.Itoa(count), "-test.cpu", "1"}
	if benchmem {
		a = append(a, "-test.benchmem")
	}
	return append(a, testbin.BenchArgs...)
}

// countingEnv returns env with the settings of a counting run: one
// processor (GOMAXPROCS=1), the collector off with the GOMEMLIMIT guard,
// and GODEBUG settings that make a process repeat the previous one:
// randautoseed=0 (math/rand's global source starts from the same seed, so
// both versions draw the same inputs), asyncpreemptoff=1 (no preemption
// signals, which also crash Callgrind), memprofilerate=0 (no sampled
// allocation stacks at random moments) and gctrace=1 (to see whether the
// guard fired). Settings already in env's GODEBUG come first and are
// overridden.
func countingEnv(env []string, memLimit int64, collectorOff bool) []string {
	out := make([]string, 0, len(env)+4)
	godebug := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			godebug = v
			continue
		}
		out = append(out, kv)
	}
	ours := "randautoseed=0,asyncpreemptoff=1,memprofilerate=0"
	if collectorOff {
		ours += ",gctrace=1"
		out = append(out, "GOGC=off", "GOMEMLIMIT="+strconv.FormatInt(memLimit, 10))
	}
	if godebug != "" {
		ours = godebug + "," + ours
	}
	return append(out, "GOMAXPROCS=1", "GODEBUG="+ours)
}

// gcLine is a gctrace line. The runtime writes it to stderr, so it may
// start in the middle of a line of the benchmark's output on stdout.
var gcLine = regexp.MustCompile(`gc \d+ @[^\n]*\n?`)

// withoutGCTrace returns out without its gctrace lines.
func withoutGCTrace(out []byte) []byte { return gcLine.ReplaceAll(out, nil) }

// guardFired reports whether out holds a gctrace line of a collection that
// was not forced (testing forces one before each run of a benchmark): with
// GOGC=off, only the GOMEMLIMIT guard starts one.
func guardFired(out []byte) bool {
	for _, l := range gcLine.FindAll(out, -1) {
		if !strings.Contains(string(l), "(forced)") {
			return true
		}
	}
	return false
}

// run runs the test binary once and returns its result, or an error that
// names the benchmark and ends with how it failed (testbin.Failure: the
// panic with the frame that raised it when there is one, else the
// output's tail).
func (o Options) run(ctx context.Context, env []string, name string, args ...string) (testbin.Result, error) {
	res := testbin.Run(ctx, o.Dir, env, o.timeout(), name, args...)
	switch {
	case ctx.Err() != nil:
		return res, ctx.Err()
	case res.TimedOut:
		return res, fmt.Errorf("%s: timed out after %s\n%s", o.Name, o.timeout(), testbin.Failure(res.Output, 8))
	case res.Err != nil:
		return res, fmt.Errorf("%s: %v\n%s", o.Name, res.Err, testbin.Failure(res.Output, 8))
	}
	return res, nil
}

// A SkippedError is the error of a measurement whose benchmark skipped
// itself (b.Skip, b.Skipf, b.SkipNow): it ran, and gave no result by its
// own choice, such as for test data it did not find. The output's
// "--- SKIP:" line says so (testbin.ParseOutput).
type SkippedError struct {
	// Name is the benchmark that skipped: the one measured, the parent
	// that skipped before running it, or else the first of its
	// sub-benchmarks that skipped when none gave a result.
	Name string
	// Message is what the benchmark logged with its skip, "" for none.
	Message string
}

// Error names the benchmark and says why it skipped.
func (e *SkippedError) Error() string {
	if e.Message == "" {
		return e.Name + ": the benchmark skipped itself"
	}
	return e.Name + ": the benchmark skipped itself: " + e.Message
}

// errNotRun is the error for a process that exited without running the
// benchmark name: a *[SkippedError] when it, its parent or one of its
// sub-benchmarks skipped itself, else one that quotes the output's tail, such as for a name that
// is not in the binary.
func errNotRun(name string, out []byte) error {
	for _, s := range testbin.ParseOutput(withoutGCTrace(out), benchname.Top(name)).Skipped {
		if s.Name == name || strings.HasPrefix(name, s.Name+"/") || strings.HasPrefix(s.Name, name+"/") {
			return &SkippedError{Name: s.Name, Message: s.Message}
		}
	}
	return fmt.Errorf("%s: the benchmark did not run (no result line in its output)\n%s", name, tail(out, 8))
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
