// Package suite turns a selection of benchmarks into ready-to-run `go test`
// invocations, for CI jobs that run only the optimized suite.
//
// # Vocabulary
//
// A benchmark's full name is the name `go test -bench` prints, without the
// "-N" GOMAXPROCS suffix: the top-level function name, then one element per
// sub-benchmark level, separated by "/" (for example
// "BenchmarkEncode/n=100"). The testing package rewrites sub-benchmark names
// before printing them: white space becomes "_", unprintable runes become
// their Go escapes, and a repeated name gets a "#01", "#02", ... suffix.
// [benchname.Rewrite] applies the first two rules; the suffixes are the caller's to
// know (collect records names exactly as printed, so they already carry them).
//
// A selection is a list of benchmarks, each named by its package import path
// and full name, in relevance order (the order an optimizer picked them).
//
// An invocation is one `go test -run '^$' -bench PATTERN PKG` command for one
// package. Its pattern uses the -bench syntax: `go test` splits the pattern at
// each "/" and at each "|" outside brackets and parentheses, matches the i-th
// "/"-separated piece against the i-th element of a benchmark's full name,
// and runs a benchmark when any "|"-separated alternative matches. [benchname.Pattern]
// builds one anchored alternative per group of siblings, such as
//
//	^BenchmarkA$/^(x|y)$|^BenchmarkB$/^z$
//
// so it selects exactly A/x, A/y and B/z and never A/z or B/x: choices that do
// not form a product are kept apart rather than over-selected. Every element
// is quoted with [regexp.QuoteMeta], so metacharacters in sub-benchmark names
// are matched literally.
//
// A selected benchmark that has sub-benchmarks of its own (a top-level
// function profiled as one unit) selects all of them, exactly as
// `go test -bench '^Name$'` does.
//
// [benchname.Filter] reimplements go test's matching rules, so callers (and this
// package's tests) can check which names a pattern selects without running
// go test.
package suite
