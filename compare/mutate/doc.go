// Package mutate slows one function of a module down by a known amount
// without touching the source tree, so a suite's claim to catch such a
// slowdown can be checked (mbopt mutate): performance mutation testing.
//
// A mutant is the function's file with a call of a busy loop at the
// function's entry, given to go build through -overlay ([Site.Overlay]):
// the loop runs a fixed number of iterations per call of the function,
// sized ([Size]) so that it adds a chosen fraction of the function's own
// instructions per call. The sizing counts under Valgrind: the function's
// own instructions per operation of a benchmark that runs it (line by
// line, so an inlined function counts too), and, on a probe mutant, how
// often the busy loop is called per operation (once per call of the
// function, inlined or not) and what one iteration costs. A slowdown s of
// a function f then adds s × (f's own instructions per call) to every call
// of f: what package sensitivity calls a slowdown of f.
package mutate
