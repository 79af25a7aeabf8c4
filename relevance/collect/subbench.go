package collect

import (
	"go/ast"
	"slices"
)

// This file decides from the source which top-level benchmarks may create
// sub-benchmarks, so that only those get a discovery run (see "Discovery"
// in the package documentation).

// A funcKey names a package-level function of a test package: the package
// name (p or p_test) and the function name.
type funcKey struct{ pkg, name string }

// parentBenchmarks returns the sorted names of the benchmarks among files'
// declarations that may create sub-benchmarks: whose *testing.B parameter
// has its Run method selected (called, or taken as a method value), in the
// benchmark or in a package-level function of the same test package it
// passes the parameter to, at any depth. A function of another package
// that receives the parameter is not followed; Collect notices at run time
// when such a benchmark did create sub-benchmarks.
func parentBenchmarks(files []*ast.File) []string {
	funcs := map[funcKey]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Body != nil {
				funcs[funcKey{f.Name.Name, fn.Name.Name}] = fn
			}
		}
	}
	type visit struct {
		fn    funcKey
		param int
	}
	memo := map[visit]bool{}
	var runs func(v visit) bool
	runs = func(v visit) bool {
		if r, ok := memo[v]; ok {
			return r
		}
		memo[v] = false // a recursive call adds nothing
		fn := funcs[v.fn]
		name := paramName(fn, v.param)
		if name == "" {
			return false
		}
		found := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok && id.Name == name && n.Sel.Name == "Run" {
					found = true
				}
			case *ast.CallExpr:
				callee, ok := n.Fun.(*ast.Ident)
				if !ok {
					return true
				}
				k := funcKey{v.fn.pkg, callee.Name}
				if _, ok := funcs[k]; !ok {
					return true
				}
				for i, a := range n.Args {
					if id, ok := a.(*ast.Ident); ok && id.Name == name && runs(visit{k, i}) {
						found = true
					}
				}
			}
			return !found
		})
		memo[v] = found
		return found
	}
	var out []string
	for k, fn := range funcs {
		if isBenchmarkFunc(fn) && runs(visit{k, 0}) {
			out = append(out, k.name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// paramName returns the name of fn's i-th parameter, or "" when it has
// none usable (unnamed, blank, or i out of range).
func paramName(fn *ast.FuncDecl, i int) string {
	if fn == nil || fn.Type.Params == nil {
		return ""
	}
	for _, field := range fn.Type.Params.List {
		if len(field.Names) == 0 {
			if i == 0 {
				return ""
			}
			i--
			continue
		}
		if i < len(field.Names) {
			if n := field.Names[i].Name; n != "_" {
				return n
			}
			return ""
		}
		i -= len(field.Names)
	}
	return ""
}
