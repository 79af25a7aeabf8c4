package staticcg

import (
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Name returns the name a CPU profile gives fn's code, normalised as
// callgraph.NormalizeName normalises profile names, and whether fn has one.
// The rules (see "Names" in the package documentation) follow the Go
// compiler's symbol names:
//
//	SSA function                     profile name
//	example.com/m/p.F                example.com/m/p.F
//	(*example.com/m/p.T).M           example.com/m/p.(*T).M
//	(example.com/m/p.T).M            example.com/m/p.T.M
//	example.com/m/p.Map[int, string] example.com/m/p.Map[...]
//	(*example.com/m/p.Tree[int]).Put example.com/m/p.(*Tree[...]).Put
//	example.com/m/p.F$1              example.com/m/p.F.func1
//	example.com/m/p.F$1$1            example.com/m/p.F.func1.1
//	example.com/m/p.F$2 (range body) example.com/m/p.F-range1
//	(example.com/m/p.T).M$bound      example.com/m/p.T.M-fm
//	example.com/m/p.init             example.com/m/p.init
//	example.com/m/p.init#1           example.com/m/p.init.0
//	example.com/m/main.F             main.F
//
// A method's package is its receiver type's, so a promoted method's
// wrapper is named after the outer type as the compiler names it. A
// method-expression thunk (T.M$thunk) has no name: the compiler calls the
// method directly. Functions of types declared inside a function and the
// compiler's own go/defer wrappers (F.gowrapN, F.deferwrapN), which SSA
// does not have, are not matched.
func Name(fn *ssa.Function) (string, bool) {
	if fn.Parent() != nil {
		return anonName(fn)
	}
	short := fn.Name()
	switch {
	case strings.HasSuffix(short, "$thunk"):
		return "", false
	case strings.HasSuffix(short, "$bound"):
		obj, ok := fn.Object().(*types.Func)
		if !ok {
			return "", false
		}
		recv := obj.Signature().Recv()
		if recv == nil {
			return "", false
		}
		base, ok := methodName(recv.Type(), obj.Name())
		return base + "-fm", ok
	}
	if recv := fn.Signature.Recv(); recv != nil {
		return methodName(recv.Type(), short)
	}
	pkg := fn.Pkg
	if pkg == nil && fn.Origin() != nil {
		pkg = fn.Origin().Pkg
	}
	if pkg == nil {
		return "", false
	}
	if base, n, ok := strings.Cut(short, "#"); ok && base == "init" {
		// init#1 is the first init function of the package, init.0.
		i, err := strconv.Atoi(n)
		if err != nil || i < 1 {
			return "", false
		}
		short = "init." + strconv.Itoa(i-1)
	}
	if i := strings.IndexByte(short, '['); i >= 0 {
		short = short[:i] + "[...]"
	} else if fn.TypeParams().Len() > 0 {
		short += "[...]"
	}
	return pkgPrefix(pkg.Pkg) + "." + short, true
}

// methodName returns the profile name of method m of receiver type t.
func methodName(t types.Type, m string) (string, bool) {
	ptr := false
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		ptr, t = true, p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return "", false // error.Error and other methods of no package
	}
	if named.Obj().Parent() != nil && named.Obj().Parent() != named.Obj().Pkg().Scope() {
		return "", false // a type declared inside a function
	}
	recv := named.Obj().Name()
	if named.TypeArgs().Len() > 0 || named.TypeParams().Len() > 0 {
		recv += "[...]"
	}
	if ptr {
		recv = "(*" + recv + ")"
	}
	return pkgPrefix(named.Obj().Pkg()) + "." + recv + "." + m, true
}

// pkgPrefix returns the package part of a symbol name: "main" for package
// main, as the linker names it, else the import path with the dots of its
// last element escaped ("gopkg.in/yaml%2ev3"), as callgraph.PackageOf
// expects.
func pkgPrefix(p *types.Package) string {
	if p.Name() == "main" {
		return "main"
	}
	path := p.Path()
	slash := strings.LastIndexByte(path, '/')
	last := path[slash+1:]
	if strings.ContainsAny(last, ".%") {
		last = strings.ReplaceAll(last, "%", "%25")
		last = strings.ReplaceAll(last, ".", "%2e")
	}
	return path[:slash+1] + last
}

// isRangeBody reports whether fn is the body of a range-over-func loop,
// which SSA makes an anonymous function and the compiler names F-rangeN.
func isRangeBody(fn *ssa.Function) bool {
	return fn.Parent() != nil && strings.HasPrefix(fn.Synthetic, "range-over-func")
}

// anonName names an anonymous function as the compiler does: closures are
// numbered in source order within their owner, the nearest enclosing
// function that is not a range-over-func body (a loop body is part of the
// function it is written in), as owner.funcN when the owner is a named
// function and owner.N when it is a closure; range-over-func bodies are
// numbered separately, owner-rangeN.
func anonName(fn *ssa.Function) (string, bool) {
	owner := fn.Parent()
	for isRangeBody(owner) {
		owner = owner.Parent()
	}
	base, ok := Name(owner)
	if !ok {
		return "", false
	}
	rangeBody := isRangeBody(fn)
	n := 0
	found := false
	var walk func(f *ssa.Function)
	walk = func(f *ssa.Function) {
		for _, a := range f.AnonFuncs {
			if found {
				return
			}
			if isRangeBody(a) == rangeBody {
				n++
			}
			if a == fn {
				found = true
				return
			}
			if isRangeBody(a) {
				walk(a)
			}
		}
	}
	walk(owner)
	if !found {
		return "", false
	}
	switch {
	case rangeBody:
		return base + "-range" + strconv.Itoa(n), true
	case owner.Parent() == nil:
		return base + ".func" + strconv.Itoa(n), true
	}
	return base + "." + strconv.Itoa(n), true
}
