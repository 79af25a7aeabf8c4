package recommend

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/enum"
	"github.com/mbopt/mbopt/internal/srcfunc"
)

// Targets says which functions [Additional] may recommend (see "Targets" in
// the package documentation).
type Targets int

const (
	// AnyFunction recommends any uncovered project node: the paper's
	// Algorithm 3 exactly.
	AnyFunction Targets = iota
	// Callable recommends only functions and methods a benchmark can
	// call, with closures folded into their enclosing function.
	Callable
)

// String returns "any" or "callable".
func (t Targets) String() string {
	return enum.Name("Targets", t, "any", "callable")
}

// ParseTargets parses "any" or "callable".
func ParseTargets(s string) (Targets, error) {
	return enum.Parse("invalid targets", s, Callable, AnyFunction)
}

// funcName is a function name from a profile split into the named function
// that encloses it and whether it is a closure of that function.
type funcName struct {
	// named is the enclosing named function's full name: "pkg.F",
	// "pkg.T.M" or "pkg.(*T).M" (the name itself for a named function).
	named string
	// pkg is the import path; short the function or method name; recv the
	// receiver type name without "*" and parentheses, "" for functions.
	pkg, short, recv string
	// closure reports a closure, go/defer wrapper, range-over-func body or
	// method value folded into named.
	closure bool
}

// parseFunc splits a normalised function name (see callgraph.NormalizeName).
// It returns false for names of no known shape.
//
// Closure segments are "funcN", "gowrapN", "deferwrapN" and bare numbers
// (a nested closure, F.func1.2); a '-' suffix ("-range1", "-fm") marks the
// segment as a compiler-made body of the function it follows. A method
// named like a closure segment (T.func1) is read as a closure of T: Go
// names cannot tell them apart.
func parseFunc(name string) (funcName, bool) {
	slash := strings.LastIndexByte(name, '/')
	dot := strings.IndexByte(name[slash+1:], '.')
	if dot < 0 {
		return funcName{}, false
	}
	rest := name[slash+1+dot+1:]
	prefix := name[:len(name)-len(rest)] // "pkg."
	segs := srcfunc.Elements(rest)
	f := funcName{pkg: callgraph.PackageOf(name)}
	// cut strips a '-' suffix from a segment, marking a closure.
	cut := func(s string) string {
		if i := strings.IndexByte(s, '-'); i > 0 {
			f.closure = true
			return s[:i]
		}
		return s
	}
	n := 1 // segments in the named part
	switch {
	case strings.HasPrefix(segs[0], "("):
		// (*T).M
		if len(segs) < 2 || !strings.HasSuffix(segs[0], ")") {
			return funcName{}, false
		}
		f.recv = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(segs[0], "("), "*"), ")")
		n = 2
	case len(segs) >= 2 && !strings.Contains(segs[0], "-") && !isClosureSeg(segBase(segs[1])):
		// T.M
		f.recv = segs[0]
		n = 2
	}
	if f.recv != "" {
		f.short = cut(segs[1])
		f.named = prefix + segs[0] + "." + f.short
	} else {
		f.short = cut(segs[0])
		f.named = prefix + f.short
	}
	for _, s := range segs[n:] {
		if f.closure {
			break // everything after a '-' suffix lies inside it
		}
		if !isClosureSeg(cut(s)) {
			return funcName{}, false
		}
		f.closure = true
	}
	return f, true
}

// segBase strips a '-' suffix: "func1-range1" → "func1".
func segBase(s string) string {
	if i := strings.IndexByte(s, '-'); i > 0 {
		return s[:i]
	}
	return s
}

// isClosureSeg reports whether s names a closure inside a function:
// funcN, gowrapN, deferwrapN or a bare number (nested closures, init.N).
func isClosureSeg(s string) bool {
	for _, p := range []string{"func", "gowrap", "deferwrap"} {
		if strings.HasPrefix(s, p) && len(s) > len(p) {
			s = s[len(p):]
			break
		}
	}
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// callable reports whether a benchmark can call the named function f: it
// has a package other than main and is neither an initialiser (init,
// init.N, glob..funcN) nor unnamed.
func (f funcName) callable() bool {
	if f.pkg == "" || f.pkg == "main" || f.short == "init" || f.short == "glob" || f.short == "" {
		return false
	}
	return isIdent(baseName(f.short)) && (f.recv == "" || isIdent(baseName(f.recv)))
}

// exported reports whether a test in an external _test package can call f:
// the function and, for a method, its receiver type are exported.
func (f funcName) exported() bool {
	if !isExported(baseName(f.short)) {
		return false
	}
	return f.recv == "" || isExported(baseName(f.recv))
}

// baseName strips a type-argument list: "Map[...]" → "Map".
func baseName(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		return s[:i]
	}
	return s
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && !unicode.IsLetter(c) && (i == 0 || !unicode.IsDigit(c)) {
			return false
		}
	}
	return true
}

func isExported(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}
