package changes

import (
	"slices"
	"strings"
	"sync"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/benchname"
)

// matcher answers whether a profile function name is a changed function.
type matcher struct {
	exact map[string]bool
	// closures holds the changed closures by package and the rest of
	// the name ("F.func1"), for the copies inlining makes.
	closures map[[2]string]bool
}

// Names returns the names of the changed functions, sorted.
func (r *Result) Names() []string {
	names := make([]string, len(r.Functions))
	for i, f := range r.Functions {
		names[i] = f.Name
	}
	return names
}

var matcherMu sync.Mutex

func (r *Result) matcher() *matcher {
	matcherMu.Lock()
	defer matcherMu.Unlock()
	if r.match == nil {
		m := &matcher{exact: map[string]bool{}, closures: map[[2]string]bool{}}
		for _, f := range r.Functions {
			m.exact[f.Name] = true
			pkg := callgraph.PackageOf(f.Name)
			if rest, ok := strings.CutPrefix(f.Name, pkg+"."); ok && pkg != "" && isClosure(rest) {
				m.closures[[2]string{pkg, rest}] = true
			}
		}
		r.match = m
	}
	return r.match
}

// isClosure reports whether a package-relative name names a closure: an
// element after the first is "funcN".
func isClosure(rest string) bool {
	elems := strings.Split(rest, ".")
	for _, e := range elems[1:] {
		if n, ok := strings.CutPrefix(e, "func"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}

// Matches reports whether the profile function name (normalised with
// callgraph.NormalizeName) is a changed function. Besides the exact name it
// accepts the names the compiler gives to copies of changed code: the body
// of a range-over-func loop ("F-range1" is F's code) and a closure inlined
// into another function ("pkg.G.F.func1" is the copy of "pkg.F.func1"
// inlined into G).
func (r *Result) Matches(name string) bool {
	m := r.matcher()
	if m.exact[name] {
		return true
	}
	if i := strings.Index(name, "-range"); i >= 0 {
		if m.exact[stripRange(name)] {
			return true
		}
	}
	if len(m.closures) == 0 {
		return false
	}
	pkg := callgraph.PackageOf(name)
	rest, ok := strings.CutPrefix(name, pkg+".")
	if !ok || pkg == "" {
		return false
	}
	for i := strings.IndexByte(rest, '.'); i >= 0; {
		rest = rest[i+1:]
		if m.closures[[2]string{pkg, rest}] {
			return true
		}
		i = strings.IndexByte(rest, '.')
	}
	return false
}

// stripRange removes every "-rangeN" suffix of a name element.
func stripRange(name string) string {
	var b strings.Builder
	for {
		i := strings.Index(name, "-range")
		if i < 0 {
			b.WriteString(name)
			return b.String()
		}
		b.WriteString(name[:i])
		j := i + len("-range")
		for j < len(name) && name[j] >= '0' && name[j] <= '9' {
			j++
		}
		name = name[j:]
	}
}

// Nodes returns the ids of g's nodes that are changed functions (see
// [Result.Matches]), in increasing order.
func (r *Result) Nodes(g *callgraph.Graph) []int {
	var ids []int
	for i, n := range g.Nodes {
		if r.Matches(n.Name) {
			ids = append(ids, i)
		}
	}
	return ids
}

// A Benchmark names a benchmark for [Affected].
type Benchmark struct {
	// ID is the benchmark's id in the coverage result.
	ID string
	// Package is the import path of the benchmark's package; with Name it
	// names the benchmark's own function. Empty when unknown.
	Package string
	// Name is the benchmark's full name ("BenchmarkX/sub"); its first
	// element is the benchmark function.
	Name string
}

// A Hit is a benchmark whose code changed.
type Hit struct {
	// ID is the benchmark's id.
	ID string `json:"id"`
	// Functions are the changed functions that make it affected, sorted:
	// the application functions it covers, then its own benchmark
	// function and the closures in it.
	Functions []string `json:"functions"`
}

// Affected returns the benchmarks, in the order given, whose code the
// change touches: a benchmark is affected when a function in its coverage
// set (the application functions it covers, in cov) is changed, or when its
// own benchmark function (Package.BenchmarkX, or Package_test.BenchmarkX
// for an external test package) or a closure in it is. Changes to functions
// the benchmark runs but the application does not (test helpers, code only
// a benchmark calls) do not count: the suite measures the application's
// code. Benchmarks without a coverage set in cov count only by their own
// function.
func Affected(cov *coverage.Result, benches []Benchmark, r *Result) []Hit {
	var changedApp []int
	if cov != nil {
		changedApp = r.Nodes(cov.App)
	}
	var hits []Hit
	for _, b := range benches {
		var fns []string
		if cov != nil {
			if i, ok := cov.Index(b.ID); ok {
				for _, n := range changedApp {
					if cov.Sets[i].Nodes.Has(n) {
						fns = append(fns, cov.App.Nodes[n].Name)
					}
				}
			}
		}
		fns = append(fns, r.own(b)...)
		if len(fns) == 0 {
			continue
		}
		slices.Sort(fns)
		hits = append(hits, Hit{ID: b.ID, Functions: slices.Compact(fns)})
	}
	return hits
}

// own returns the changed functions that are b's benchmark function or
// closures in it.
func (r *Result) own(b Benchmark) []string {
	if b.Package == "" || b.Name == "" {
		return nil
	}
	// The benchmark function's name in a profile is the id of the
	// top-level benchmark, in the package or its external test package.
	top := benchname.Top(b.Name)
	var out []string
	for _, prefix := range []string{benchname.ID(b.Package, top), benchname.ID(b.Package+"_test", top)} {
		for _, f := range r.Functions {
			if f.Name == prefix || strings.HasPrefix(f.Name, prefix+".") || strings.HasPrefix(f.Name, prefix+"-range") {
				out = append(out, f.Name)
			}
		}
	}
	return out
}
