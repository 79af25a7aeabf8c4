// Package callgraph turns CPU profiles into call graphs, the input of every
// later stage of mbopt.
//
// # Graphs
//
// A [Graph] has one node per function seen in any sample of its profile(s).
// Inlined frames count as functions of their own, exactly as if they had not
// been inlined, so a graph does not depend on the compiler's inlining
// decisions. There is an edge caller→callee for each pair of adjacent frames
// in any stack (self-calls of recursive functions are dropped; they add
// nothing to reachability). Each node carries its flat (self) value — the
// samples in which it is the leaf frame — and its cumulative value — the
// samples in which it appears anywhere, counted once per sample even under
// recursion. For CPU profiles both are in seconds.
//
// Nodes are sorted by name and a node's id is its index, so ids and every
// bitset built over them are stable across runs and machines.
//
// # Project and external nodes
//
// A node is a project node when its package path equals one of
// [Options.Modules] or lies below one, matched on path boundaries:
// "github.com/x/y" covers "github.com/x/y/storage" but not
// "github.com/x/y-client". Every other node — standard library, runtime,
// dependencies — is external. Functions of package main are named "main.F"
// in profiles, without their import path, so they are external unless
// "main" itself is listed as a module.
//
// # Names
//
// Function names are normalised so the same function compares equal across
// binaries built by different Go versions and with different instantiations
// (see [NormalizeName]): every bracketed type-argument list, such as
// "[go.shape.int]", "[go.shape.*uint8,go.shape.string]" or "[...]", becomes
// "[...]". All instantiations of a generic function therefore share one node;
// the paper (section 6.4) notes that generic functions otherwise fragment
// the graphs.
//
// # Inputs
//
// [ReadProfile] reads gzipped or plain pprof protobuf as written by
// "go test -cpuprofile", runtime/pprof, net/http/pprof's /debug/pprof/profile
// or a default.pgo. By default a profile without a CPU sample type
// ("cpu"/"nanoseconds") or without any sample is rejected with an error that
// names the file; [Options.AllowNonCPU] and [Options.AllowEmpty] opt in.
package callgraph
