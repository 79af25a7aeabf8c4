// Package opprof builds per-operation profiles: the cost of one benchmark
// operation per source line, credited to the function whose body encloses
// the line, from Valgrind's output files (Cachegrind or Callgrind) or a Go
// CPU profile, and writes them as pprof files.
//
// Package culprit diffs two sides' profiles to say where a benchmark's
// change happened; package collect writes one per benchmark for the
// instruction source of 'mbopt profile' (its timed scope keeps what grows
// with b.N: [Profile.Grown]).
//
// # Attribution by source line
//
// Go inlines small functions into their callers, and Valgrind's function
// table then credits the caller with the helper's work. Valgrind records
// counts per source file and line as well, and the line table of an
// inlined call names the helper's lines; [Resolver] maps each file:line to
// the innermost function whose body encloses it (go/ast, named by
// internal/srcfunc's rule, the one package changes uses), so the helper's
// work is credited to the helper. CPU profiles carry inline frames, and
// [FromCPUProfile] credits the innermost one.
//
// # Two counts
//
// [Instructions] takes the output files of two runs of the same benchmark
// at n1 and n2 iterations and divides the per-line difference by n2 − n1:
// process start-up, the benchmark's setup before b.ResetTimer, its
// validation after b.StopTimer and Go's first run at b.N = 1 happen the
// same number of times in both runs and cancel out. [Whole] keeps one
// run's counts, everything included.
package opprof
