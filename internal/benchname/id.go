package benchname

import "strings"

// ID returns the id of the benchmark with the full name name in the
// package with import path pkg: pkg + "." + name, such as
// "example.com/m/storage.BenchmarkAdd/n=10". [SplitID] inverts it.
func ID(pkg, name string) string { return pkg + "." + name }

// Top returns the top-level benchmark of the full benchmark name name: the
// BenchmarkXxx function it runs under, which is name up to its first "/"
// (all of name for a top-level benchmark). Sub-benchmark names may
// contain anything after it, dots included, so Top(name) is the name
// go test -list prints for the function, and [ID](pkg, Top(name)) the id
// of the top-level benchmark.
func Top(name string) string {
	top, _, _ := strings.Cut(name, "/")
	return top
}

// SplitID splits a benchmark id "<import path>.<BenchmarkName>[/<sub>...]"
// into the import path and the full benchmark name, at the first
// ".Benchmark" (sub-benchmark names may contain anything after it). It
// reports false when there is none or nothing precedes it.
func SplitID(id string) (pkg, name string, ok bool) {
	i := strings.Index(id, ".Benchmark")
	if i <= 0 || strings.Contains(id[:i], "/Benchmark") {
		return "", "", false
	}
	return id[:i], id[i+1:], true
}
