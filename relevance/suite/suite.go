package suite

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
)

// A Benchmark is one selected benchmark.
type Benchmark struct {
	// Package is the import path of the benchmark's package. Required.
	Package string `json:"package"`
	// Dir is the package directory, relative to the module root or
	// absolute. Informational: invocations name the package by import path.
	Dir string `json:"dir,omitempty"`
	// Name is the full benchmark name, such as "BenchmarkEncode/n=100".
	// Plan applies [benchname.Rewrite] to it, so either the printed or the b.Run
	// spelling works, except for "#01"-style suffixes, which must be given.
	Name string `json:"name"`
	// Affected marks a benchmark whose covered functions a change touched
	// (see package changes); Plan lists it in [Invocation.Affected].
	Affected bool `json:"affected,omitempty"`
}

// Options configures [Plan]. The zero value keeps every benchmark and adds no
// flags.
type Options struct {
	// Top keeps the first Top benchmarks of the selection (after removing
	// duplicates), that is the Top most relevant ones. Zero or negative
	// keeps all.
	Top int
	// Flags are extra go test flags placed before the package argument,
	// such as "-benchtime", "1x" or "-count", "10".
	Flags []string
	// OnlyAffected keeps only the benchmarks marked Affected (before
	// Top counts), so that CI runs just the benchmarks a change touched.
	OnlyAffected bool
}

// An Invocation is one `go test` command that runs exactly the selected
// benchmarks of one package.
type Invocation struct {
	// Package is the import path passed to go test.
	Package string `json:"package"`
	// Dir is the package directory, as given in the selection (the first
	// non-empty one).
	Dir string `json:"dir,omitempty"`
	// Benchmarks are the full names the invocation runs, sorted.
	Benchmarks []string `json:"benchmarks"`
	// Affected are the Benchmarks marked Affected in the selection,
	// sorted; empty when none is.
	Affected []string `json:"affected,omitempty"`
	// Bench is the -bench pattern; see the package documentation.
	Bench string `json:"bench"`
	// Args is the complete command line, starting with "go", to be run
	// from inside the module.
	Args []string `json:"args"`
}

// Command returns the invocation as one POSIX shell command line, quoting
// each argument that needs it with single quotes.
func (inv Invocation) Command() string {
	q := make([]string, len(inv.Args))
	for i, a := range inv.Args {
		q[i] = textutil.ShellQuote(a)
	}
	return strings.Join(q, " ")
}

// Plan groups the selection by package and returns one invocation per
// package, sorted by package path. Duplicate benchmarks (same package and
// name after [benchname.Rewrite]) are kept once, affected when any copy is.
// With opts.OnlyAffected only the benchmarks marked Affected are planned,
// and an empty plan is no error. It fails, naming the entry, when a
// benchmark has no package or its name does not start with "Benchmark".
func Plan(sel []Benchmark, opts Options) ([]Invocation, error) {
	type key struct{ pkg, name string }
	seen := make(map[key]bool)
	affected := make(map[key]bool)
	byPkg := make(map[string]*Invocation)
	kept := 0
	for i, b := range sel {
		if opts.OnlyAffected && !b.Affected {
			continue
		}
		name := benchname.Rewrite(b.Name)
		if b.Affected {
			affected[key{b.Package, name}] = true
		}
		if opts.Top > 0 && kept == opts.Top {
			continue
		}
		if b.Package == "" {
			return nil, fmt.Errorf("suite: benchmark %d (%q) has no package", i, b.Name)
		}
		if !strings.HasPrefix(name, "Benchmark") {
			return nil, fmt.Errorf("suite: benchmark %d (%s %q): name must start with \"Benchmark\"", i, b.Package, b.Name)
		}
		k := key{b.Package, name}
		if seen[k] {
			continue
		}
		seen[k] = true
		kept++
		inv := byPkg[b.Package]
		if inv == nil {
			inv = &Invocation{Package: b.Package}
			byPkg[b.Package] = inv
		}
		if inv.Dir == "" {
			inv.Dir = b.Dir
		}
		inv.Benchmarks = append(inv.Benchmarks, name)
	}
	invs := make([]Invocation, 0, len(byPkg))
	for _, inv := range byPkg {
		slices.Sort(inv.Benchmarks)
		for _, name := range inv.Benchmarks {
			if affected[key{inv.Package, name}] {
				inv.Affected = append(inv.Affected, name)
			}
		}
		inv.Bench = benchname.Pattern(inv.Benchmarks)
		inv.Args = append([]string{"go", "test", "-run", "^$", "-bench", inv.Bench}, opts.Flags...)
		inv.Args = append(inv.Args, inv.Package)
		invs = append(invs, *inv)
	}
	slices.SortFunc(invs, func(a, b Invocation) int { return cmp.Compare(a.Package, b.Package) })
	return invs, nil
}
