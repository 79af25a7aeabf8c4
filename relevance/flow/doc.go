// Package flow runs the relevance half's flows as mbopt's commands run
// them, and returns what they found as values; the caller (cmd/mbopt)
// chooses how to show them. [Run] is "mbopt run", mbopt end to end on a
// Go module: it gets the application (reference) profile, profiles every
// benchmark of the module ([collect]), and analyses both ([analysis]).
//
// The application profile comes from any of four sources, merged into one
// application graph: existing profile files, a capture from a running
// program's net/http/pprof endpoint, the module's default.pgo files (Go's
// PGO profiles) and a workload command that writes a CPU profile (see
// package reference). It is taken first, so a broken source fails in
// seconds rather than after the whole suite ran.
//
// Run makes the profiles and then analyses them; package analysis
// is the part that reads them and runs no benchmark. Use analysis.Run when
// the profiles exist (collected by another machine, a CI job, an earlier
// run), and [Run] to make them from a module in one call.
//
// [Suite] and [Check] are "mbopt suite" and "mbopt check": the optimized
// suite of an analysis as go test invocations, and the drift check of a
// saved one. The comparison half's flows are package compare/flow's; this
// package imports none of the comparison half.
package flow
