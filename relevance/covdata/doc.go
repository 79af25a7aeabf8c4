// Package covdata turns Go's binary coverage data (a GOCOVERDIR, written by
// programs and test binaries built with -cover, Go 1.20 and later) into the
// set of functions that executed, named exactly as package callgraph names
// the functions of a CPU profile, so a coverage run and a profile of the
// same code can be compared function by function.
//
// Go calls this data coverage; the rest of mbopt calls it cover data
// (source "cover" in a manifest, mbopt profile --source cover) and what
// [Load] makes of it a function set ([Set]), and keeps the word coverage
// for call-graph coverage (package coverage: the share of the
// application's functions the benchmarks reach). A function set is an
// input to that coverage, as a CPU profile is.
//
// # How the data is read
//
// [ReadCounters] decodes the binary meta-data and counter files in
// process (the format of the Go toolchain's internal/coverage packages,
// which cannot be imported; [Counters.WriteText] prints exactly what `go
// tool covdata textfmt -i DIR` prints, one line per basic block: file,
// start and end position, statements, count), and [Load] maps every block
// that ran to the function whose body contains it by parsing the package's
// source files with go/ast. Reading in process saves a go command per
// directory (about 0.4 s each on a loaded machine). Load does not name
// functions by the meta-data's names, nor by `go tool covdata func`: they
// name a method of a generic type by its method name alone (Insert for
// (*Tree[T]).Insert), give a closure the name of the function around it,
// and the report prints names in a form of its own (*DB.Get), so the set
// could not be named exactly from them. Parsing the
// source costs a few milliseconds per package; an [Index] shares the
// parsed packages between Load calls.
//
// # Names
//
// A function's name is its package's import path, ".", and then:
//
//	F                 a function
//	T.M, (*T).M       a method with a value or pointer receiver
//	F[...], (*T[...]).M   generic functions and methods of generic types
//	                  (callgraph.NormalizeName's form for every instantiation)
//	init.0, init.1    the init functions of a package, in file order
//	F.func1, F.func2  the closures (function literals) in F, in source order
//	F.func1.1         a closure inside F.func1
//	init.func1        a closure in a package-level variable's initializer
//
// This is how the compiler names the functions it emits, and so how CPU
// profiles name them: closures are named as the compiler does, not folded
// into the function around them, so a closure that never ran is not counted
// as covered because its parent ran. A function ran when one of its own
// blocks (not a block of a closure inside it) has a count above zero.
// Functions with an empty body have no block and never appear.
//
// Two kinds of profile names cannot be predicted from the source, and
// [Set.Contains] maps them back: a closure copied into another
// function by inlining is named after the function it was inlined into
// ("pkg.Caller.F.func3" for a closure of F inlined into Caller, numbered
// among Caller's closures, or "pkg.Caller.func1.F.3" when inlined into a
// closure of Caller, so which of F's closures it is cannot be told:
// it counts as run when one of F's closures ran; when F lies in another
// package, the copy's name does not say which, and F is looked up in every
// instrumented package), and the
// compiler's own wrappers (F.deferwrap1, F.gowrap1, the bodies of
// range-over-func loops, F-range1) have no function literal in the source;
// both count as run when the function they fold to ran.
//
// Coverage instruments only the packages given to -coverpkg (and never
// the standard library's assembly, the runtime, or test files), so a [Set]
// says nothing about functions outside [Set.Packages].
//
// # File format
//
// [Set.Write] and [ReadFile] store a Set as JSON:
//
//	{
//	  "version": 1,
//	  "packages": ["example.com/m/store"],   // instrumented packages, sorted
//	  "functions": [                         // functions that ran, sorted by name
//	    {"name": "example.com/m/store.(*DB).Get", "file": "example.com/m/store/store.go", "line": 11}
//	  ]
//	}
//
// A set of a timed loop ([Set.Timed]: the functions whose counters grew
// between two runs, [Counters.Grown]) is version 2, with "timed": true, so
// that a reader that knows only version 1 refuses it rather than take it
// for all that a run executed.
package covdata
