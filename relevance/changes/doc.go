// Package changes maps a code change to the functions it changes, named as
// CPU profiles name them, so that the benchmarks whose covered functions
// changed can be told apart from those the change cannot have moved.
//
// [Diff] takes a git repository, a base revision (by default the merge-base
// of HEAD with the default branch; see package internal/gitrev) and a head
// (a revision, or the work tree). It lists the changed Go files with
// git diff -U0 -M (renames detected), reads both revisions of each file
// (the base with git, never checking it out), parses them with go/parser
// and attributes every changed line to the innermost function containing
// it. [Result.Matches] and [Result.Nodes] then find those functions among a
// call graph's nodes, and [Affected] finds the benchmarks whose coverage
// sets hold them.
//
// # Names
//
// A function's name is its package's import path (the module path of the
// nearest go.mod plus the directory below it; "main" for a command, and
// the import path plus "_test" for an external test package), a dot, and
// the name the compiler gives it, with type-argument lists written "[...]"
// as callgraph.NormalizeName writes them:
//
//	F                      a function
//	Map[...]               a generic function
//	T.M, (*T).M            methods with value and pointer receivers
//	(*Tree[...]).Insert    a method of a generic type
//	F.func1, F.func2       the closures directly in F, in source order
//	F.func1.1              a closure inside the closure F.func1
//	init.0, init.1         init functions, numbered across the package
//	init.func1             a closure in a package-level declaration,
//	                       numbered across the package
//
// Package-level numbers count the package's files in the compiler's order
// (non-test files, then test files, each sorted by name; files the default
// build context excludes are skipped).
//
// Besides exact names, [Result.Matches] accepts the compiler's copies of
// changed code: "F-range1" (the body of a range-over-func loop in F) and
// "pkg.G.F.func1" (the closure pkg.F.func1 inlined into G in the same
// package). Copies inlined into another package are named after that
// package and renumbered by the compiler, so they are not recognised.
//
// # What counts as a change
//
// A function is changed when its own code differs between the revisions:
// its tokens, ignoring comments, white space and the function literals in
// it, which count as functions of their own. So a comment-only or
// formatting-only edit changes no function, and an edit inside a closure
// changes the closure but not the function around it. A function moved to
// another file of the same package is unchanged unless its code changed.
//
// Changed lines of code outside every function (package-level variables,
// constants and types, imports) are listed in [Result.Outside]: they change
// no function by name, although they may change what functions do, and
// callers should say so. Method value wrappers ("T.M-fm") and other
// compiler-generated functions are not named.
package changes
