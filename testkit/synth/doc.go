// Package synth generates large, realistic, deterministic CPU profiles of a
// synthetic application and its microbenchmark suite, for mbopt's
// performance benchmarks.
//
// # The application
//
// An application of [Config.AppNodes] functions is a call tree rooted in a
// few runtime entry points (runtime.goexit, runtime.main, runtime.mcall,
// runtime.mstart, with main.main below runtime.main and the GC workers
// below runtime.goexit). Every other function is called by a parent chosen
// among the functions before it, with a bias towards recent ones, giving
// stacks about 2·ln(AppNodes) deep. About 30% of the functions are project functions in
// packages below [Config.Module]; they are more common near the roots, while
// the rest (runtime, standard library and third-party names, some generic)
// are more common near the leaves, as in real Go programs. Besides the tree,
// a quarter of the functions make a cross call to a later function (half of
// them to a few hub functions such as allocators), 1% call back to a near
// ancestor (mutual recursion: small strongly connected components) and 1%
// call themselves. Some calls are inlined, giving locations with two lines,
// and functions have one to three call sites (locations).
//
// With [Config.Chain] most functions instead extend the call chain of the
// function generated before them, giving stacks hundreds of functions
// deep; [Config.MaxStack] then truncates samples to their leaf-most
// frames, as the Go runtime's CPU profiler does at 64.
//
// The application profile holds a sample for every leaf, for 30% of the
// inner functions and for every cross call, so its graph has exactly
// AppNodes nodes. Sample values are skewed (log-normal per function), so a
// few functions hold most of the flat time, as in real profiles.
//
// # The benchmarks
//
// Benchmark k exercises a region of the application: a breadth-first walk
// from an entry project function along calls (cross calls followed half the
// time) of a log-uniform size between [Config.MinBenchNodes] and
// [Config.MaxBenchNodes] (at most a quarter of the application). Entries are
// drawn among the functions whose subtree is large enough, in the 60% of the
// project packages that have benchmarks, so regions nest and overlap
// heavily as in real suites; 15% of the benchmarks are smaller
// variants of the previous one (redundant) and 3% exercise only code the
// application never runs (irrelevant). Every benchmark profile also has its
// own nodes — testing.(*B).launch, testing.(*B).runN, the Benchmark function,
// a fixture helper — and GC stacks shared with the application.
//
// # Determinism
//
// Everything derives from [Config.Seed] through explicit PCG sources: the
// same Config gives identical profiles on every run and machine, and each
// benchmark profile is generated independently of the others, so they can be
// produced in any order or in parallel.
package synth
