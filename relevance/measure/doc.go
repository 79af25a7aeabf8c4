// Package measure runs one benchmark of a built Go test binary and returns
// its cost per operation in a metric that a noisy, shared machine cannot
// move: instructions counted under Valgrind, or the process's CPU time,
// with allocations beside them.
//
// # Two counts
//
// Each measurement runs the benchmark in two processes, at N1 and N2
// iterations (-test.benchtime N1x and N2x, 1 < N1 < N2, -test.cpu 1) and
// takes the difference per operation, (M(N2) − M(N1)) / (N2 − N1). Process
// start-up, the benchmark's setup and Go's first run of every benchmark at
// b.N = 1 happen in both processes and cancel out. [Options.Counts]
// chooses the counts from the benchmark's time per operation in a normal
// run ([Allocations]) so the higher count runs about a target time.
//
// # Instructions
//
// [CountInstructions] runs both processes under Valgrind with GOMAXPROCS=1,
// the collector off (GOGC=off; a GOMEMLIMIT guard, 1 GiB by default, stops
// the heap from growing without bound, and Value.GuardFired says when it
// started a collection) and GODEBUG=randautoseed=0 (math/rand's global
// source starts from the same seed in every process, so both versions
// draw the same inputs), asyncpreemptoff=1 (preemption signals make the
// count depend on timing, and crash Callgrind) and memprofilerate=0 (no
// allocation stacks sampled at random). With the collector on, when it
// runs depends on timing, and an allocating benchmark's count moves by
// several percent; its cost shows in B/op and allocs/op instead, which
// [Allocations] measures in a separate normal run.
//
// I is the whole process's count. Counting only inside the benchmark's
// function looks better and is not: Go switches goroutine and system
// stacks without calls and returns, and Callgrind loses track of a
// function across a switch. Measured on this package's fixture on a
// 2-core machine running other jobs: with --toggle-collect on
// testing.(*B).runN the hash loop's count at 2 iterations was 4.52M or
// 5.43M (one operation of 0.9M counted or not); toggling on the benchmark
// function was exact for the hash loop (90,010 instructions/op, 4 of 4
// times) but counted −273/op for a map-building benchmark and −246/op for
// one that starts a goroutine at 4 and 24 iterations; Callgrind's inclusive
// count of the function gave the map benchmark 196,117–199,792 (1.9%).
// The whole process's count, with [Options.Counts] at the default target,
// spread over 4 measurements: the hash loop 89,986–90,032 (0.05%), a
// sub-benchmark 17,985–18,018 (0.18%), one drawing from math/rand/v2's
// global source 9,184–9,191 (0.07%), the map benchmark 197,925–198,053
// (0.07%), the goroutine one 13,275–13,475 (1.5%). Cachegrind took 3.6–5.7 s
// a measurement (two processes), Callgrind 4.4–10.9 s for the same counts,
// so Cachegrind is the default; Callgrind's output files add the call
// graph with inclusive counts.
//
// Why two processes, not both counts in one: Callgrind can cut one
// process at each run of the benchmark (Valgrind 3.19's Cachegrind has no
// such requests). --dump-before=testing.(*B).runN dumps once, at the
// first run only: Callgrind names the later runs as recursion levels
// (testing.(*B).runN'2), the top-level run being still on its stack; a
// pattern (testing.(*B).runN*) dumps at them, but also at some returns
// from the runtime's stack switches and not at others, so the segments
// move from process to process. Dumps before testing.(*B).StartTimer and
// StopTimer, the last start before each stop, cut clean runs: the hash
// loop's run at b.N = 1 was 140,118 instructions in both later counts of
// one process. It costs more, measured on a 2-core machine running other
// jobs: Callgrind's call tracking takes 3.5 to 4 times Cachegrind's
// CPU time per instruction beyond the start-up (about 0.3 s for both
// tools), so one Callgrind process at the hash loop's higher count
// (3,570, 5·10⁸ instructions) took 1.36–1.44 s of CPU time where both
// Cachegrind processes took 1.02 s (0.36 s at 2 iterations, 0.66 s at
// 3,570). Several counts in one process (-test.count) share
// the start-up but are less steady where the benchmark allocates, the
// heap carrying over from run to run: three counts in one process spread
// by 0.2% (a sort of formatted strings) and 0.4% (a map index) where
// separate processes spread by 0.09%. With the start-up outside the runs,
// fewer instructions do: one Callgrind process per measurement at 5·10⁷
// took 0.49–0.74 s of CPU time (two Cachegrind processes at 5·10⁸:
// 1.02–1.52 s) and five measurements spread by 0.055% (hash loop), 0.04%
// (map index) and 0.30% (sort); the sort at 1.5·10⁸ took 1.15–1.18 s
// (1.32 s) and spread by 0.025%. Its counts per operation differ from the
// two Cachegrind processes' (hash loop +0.1%, sort and map index −0.1 to
// −0.2%), so both versions of a comparison would have to be counted
// alike, with no fall-back to two processes for one of them.
//
// [Inspect] runs the benchmark once under Callgrind and reads its call
// graph: [Graph.BenchFunc] finds the function that runs the benchmark's
// loop (the benchmark function, a sub-benchmark's closure, a b.RunParallel
// body), and Inspection.LessStable says why a benchmark varies more than
// deterministic code: it starts goroutines (their scheduling moves the
// count), calls b.RunParallel, or uses math/rand/v2's global functions,
// whose source GODEBUG cannot seed. The output files can be kept
// (Options.Keep) for a line-by-line look with cg_annotate or
// callgrind_annotate.
//
// Without valgrind installed, CountInstructions returns [ErrNoValgrind],
// whose message names the Debian/Ubuntu package and the other metrics.
//
// # CPU time
//
// [CPUTime] runs both processes natively (GOMAXPROCS=1, the same GODEBUG
// settings, the collector on) and takes user plus system CPU time from
// each process's resource usage. A benchmark that sleeps or waits for I/O
// spends wall time that is not CPU time; Value.NotCPU says so, from the
// process's voluntary context switches and the gap between its wall and
// CPU time.
package measure
