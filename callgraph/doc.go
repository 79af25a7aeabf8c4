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
// [New], [Merge] and [Load] build graphs; a [Graph] may also be built by hand
// (see its documentation): [Graph.Lookup] indexes the nodes on first use.
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
// [Options.Exclude] takes packages of the modules out of the project with
// import path patterns ("example.com/m/cmd/..."; see [MatchPattern]),
// typically the workload driver that produced the application profile when
// it lives in a non-main package of the module. Excluded functions stay in
// the graph as external nodes, so overall coverage (over every node) is the
// same with or without the exclusion, while project-only coverage, the
// minimal suite's project criterion and recommendations leave them out.
//
// # Attributed time
//
// Flat time charges a sample to its leaf frame, which in Go is very often
// runtime or standard-library code (memclr, mallocgc, Syscall6, …) that
// every benchmark touches. [Node.Attributed] charges each sample instead to
// the innermost project frame on its stack: the project function
// responsible for the sample, with the external time below it included.
// Inlined frames are frames like any other (an inlined project function
// can be the innermost project frame), and a sample is charged once even
// when a recursive function appears on it several times. A sample with no
// project frame on its stack is charged to no node and counted in
// [Graph.OutsideProject]. Example, with project functions p.A, p.B and p.C:
//
//	stack (root → leaf)               time  charged to
//	p.A → p.B → runtime.mallocgc      10ms  p.B (innermost project frame)
//	p.A → p.C+p.B → bytes.Equal       20ms  p.B (inlined into p.C, still innermost)
//	p.A → p.C → p.C → runtime.memmove  30ms  p.C (once, though it recurses)
//	runtime.gcBgMarkWorker            40ms  no node: OutsideProject
//
// gives Attributed p.A = 0, p.B = 30ms, p.C = 30ms and OutsideProject =
// 40ms, while Flat charges 10ms to runtime.mallocgc, 20ms to bytes.Equal,
// 30ms to runtime.memmove and 40ms to runtime.gcBgMarkWorker: no project
// function has any flat time. Both sides account for every sample:
//
//	sum of Node.Flat       + Graph.Unattributed   = Graph.Total
//	sum of Node.Attributed + Graph.OutsideProject = Graph.Total
//
// Which nodes are project nodes is fixed when the graph is built (from
// [Options.Modules] and [Options.Exclude]), so Attributed describes that
// classification: an excluded function is not a project frame, so a
// sample in it is charged to the innermost project frame above it, or,
// as for a workload driver calling no project code, to OutsideProject.
//
// # Names
//
// Function names are normalised so the same function compares equal across
// binaries built by different Go versions and with different instantiations
// (see [NormalizeName]): every bracketed type-argument list, such as
// "[go.shape.int]", "[go.shape.*uint8,go.shape.string]" or "[...]", becomes
// "[...]". All instantiations of a generic function therefore share one node;
// the paper (section 6.4) notes that generic functions otherwise fragment
// the graphs. Only a list that directly follows a name is a type-argument
// list: other brackets, as in the compiler's "type:.eq.[2]string" or a
// symbol such as "[vdso]", are kept, so distinct functions never merge.
//
// # Unnamed frames
//
// A frame without a function name — a location that is only a code address
// (an unsymbolized profile, or code without symbols such as a stripped C
// library), or a function whose Name and SystemName are empty — is left out
// of the graph and counted in [Graph.UnnamedFrames]; it never becomes a
// node. Such a frame could only be named by its address, and addresses do
// not match between the application and a benchmark: they are different
// binaries, and even one binary loads at different addresses from run to
// run (ASLR). An address-keyed node would therefore never be covered, and
// giving all unnamed frames one shared name would make every unnamed
// function of every profile one node, covered whenever any benchmark has
// any unnamed frame. Dropping them is the honest choice: coverage is
// computed over functions that can be compared.
//
// Their time is kept where it can be: an unnamed frame in the middle of a
// stack is skipped, so its named caller and callee become adjacent (an edge
// caller→callee keeps reachability through it), and every named frame keeps
// its cumulative value. The flat value of a sample whose leaf frame is
// unnamed belongs to no node; it is added to [Graph.Unattributed] instead,
// and [Graph.Total] still includes it, so the reference impact of covered
// functions stays a share of all the CPU time. The invariant is
//
//	sum of Node.Flat + Graph.Unattributed = Graph.Total
//
// Samples without any location are counted the same way (in Total and
// Unattributed). A profile in which no sampled frame has a name is an
// error ([ErrUnsymbolized]); the profiles Go writes are always symbolized,
// so for them UnnamedFrames and Unattributed are 0.
//
// # Inputs
//
// [ReadProfile] reads gzipped or plain pprof protobuf as written by
// "go test -cpuprofile", runtime/pprof, net/http/pprof's /debug/pprof/profile
// or a default.pgo. Only regular files are profiles: a directory, named pipe
// (FIFO), device or socket is refused with an error wrapping [ErrNotRegular]
// without being read, and never blocks the caller. Reads are bounded by
// [Limits] ([DefaultLimits]: 256 MiB per file, 256 MiB decompressed): a larger
// file is refused from its size before it is read, and decompression stops
// as soon as it passes the limit, so a small gzip file that expands
// enormously costs no more memory than the limit. Both fail with a
// [*LimitError] naming the [Limits] field that raises the limit
// ([Options.Limits] for [Load]).
//
// # Footprints
//
// Coverage compares a benchmark's graph with the application's by node
// names only, so a suite of benchmarks need not have graphs: [Table.Load]
// decodes a benchmark profile straight into its [Footprint], the set of
// functions on its samples' stacks as ids of a [Table] (the application
// graph's nodes first, then every other name met), with the figures the
// analysis reports about the profile (unit, samples taken, duration). It
// keeps neither the decoded profile nor a graph: a footprint costs a bit
// per application function, where a graph costs a [Node] per function. Its
// decoder reads only the fields a footprint needs, straight from the
// decompressed protobuf, and checks everything pprof's profile.Parse
// checks; every profile that is an error, and the legacy formats pprof
// also reads, go through [Load] instead, so a footprint's functions and
// every error are exactly Load's.
//
// # Validation
//
// Every profile is checked before it becomes a graph, and a bad one is an
// error, never a panic. In-memory profiles handed to [New] or [Merge] must be
// consistent (pprof's [profile.Profile.CheckValid], and every sample's
// locations in the profile's Location table), else [ErrInvalid]. A profile
// that is consistent but cannot be analysed is rejected with an error that
// says what is wrong and how to get a usable profile:
//
//   - no CPU sample type: [ErrNotCPU] ([Options.AllowNonCPU] accepts it);
//   - no sample: [ErrEmpty] ([Options.AllowEmpty] accepts it);
//   - samples without any stack: [ErrNoLocations];
//   - stacks of addresses without any function name: [ErrUnsymbolized];
//   - a negative sample value, as in a difference of two profiles:
//     [ErrNegative];
//   - sample values that are all zero: [ErrZero] ([Options.AllowEmpty]
//     accepts it).
package callgraph
