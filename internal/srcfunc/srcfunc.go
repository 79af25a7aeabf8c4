// Package srcfunc names the functions and closures of a Go source file as
// the compiler names them in symbols and CPU profiles, so that every
// package that maps source to profile names (coverage data in covdata, a
// diff in changes) follows one rule:
//
//   - a function "F", a generic function "F[...]", a method "T.M" or
//     "(*T).M", a method of a generic type "T[...].M" or "(*T[...]).M"
//     (type-argument lists written "[...]" as callgraph.NormalizeName
//     writes them);
//   - init functions "init.0", "init.1", ... numbered across the package's
//     files in the order the compiler reads them;
//   - closures "F.func1", "F.func2", ... in source order, and closures
//     inside a closure "F.func1.1", "F.func1.2", ...;
//   - closures outside any function (in package-level variable
//     initializers) belong to the package initializer: "init.func1",
//     "init.func2", ... numbered across the package's files.
//
// Names carry no package path; callers prefix it. [Elements] splits such a
// name into its dot-separated parts.
package srcfunc

import (
	"go/ast"
	"strconv"
)

// A Func is a function or closure of a file.
type Func struct {
	// Name is the compiler's name without the package path.
	Name string
	// Node is the *ast.FuncDecl or *ast.FuncLit.
	Node ast.Node
	// Body is the function's body; nil for a function implemented in
	// assembly.
	Body *ast.BlockStmt
	// Parent is the index in the slice [File] returned of the function
	// the closure is directly in, or -1 for a declared function and a
	// package-level closure.
	Parent int
	// PkgLevel is set for names that depend on the package's other files:
	// init functions, package-level closures and the closures in them.
	PkgLevel bool
}

// Counters carry the package-wide numbering from one file to the next:
// pass the same Counters to [File] for each file of a package in the
// order the compiler reads them (by file name).
type Counters struct {
	// Inits counts the init functions seen so far.
	Inits int
	// Closures counts the package-level closures seen so far.
	Closures int
}

// File returns the functions and closures of f, each function followed
// by its closures (depth first, in source order). It advances c by the
// file's init functions and package-level closures; a nil c numbers from 0.
func File(f *ast.File, c *Counters) []Func {
	if c == nil {
		c = &Counters{}
	}
	var out []Func
	var add func(name string, node ast.Node, body *ast.BlockStmt, parent int, pkgLevel bool)
	add = func(name string, node ast.Node, body *ast.BlockStmt, parent int, pkgLevel bool) {
		out = append(out, Func{Name: name, Node: node, Body: body, Parent: parent, PkgLevel: pkgLevel})
		self := len(out) - 1
		_, isLit := node.(*ast.FuncLit)
		for i, lit := range Closures(body) {
			sub := name + ".func" + strconv.Itoa(i+1)
			if isLit {
				sub = name + "." + strconv.Itoa(i+1)
			}
			add(sub, lit, lit.Body, self, pkgLevel)
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" {
				add("init."+strconv.Itoa(c.Inits), d, d.Body, -1, true)
				c.Inits++
				continue
			}
			add(DeclName(d), d, d.Body, -1, false)
		case *ast.GenDecl:
			for _, lit := range Closures(d) {
				c.Closures++
				add("init.func"+strconv.Itoa(c.Closures), lit, lit.Body, -1, true)
			}
		}
	}
	return out
}

// Closures returns the function literals directly in n (not those inside
// another literal), in source order. A nil n has none.
func Closures(n ast.Node) []*ast.FuncLit {
	if n == nil {
		return nil
	}
	if b, ok := n.(*ast.BlockStmt); ok && b == nil {
		return nil
	}
	var lits []*ast.FuncLit
	ast.Inspect(n, func(c ast.Node) bool {
		if lit, ok := c.(*ast.FuncLit); ok && c != n {
			lits = append(lits, lit)
			return false
		}
		return true
	})
	return lits
}

// DeclName names a declared function or method as the compiler does,
// without the package: "F", "Map[...]", "T.M", "(*T).M", "T[...].M",
// "(*Tree[...]).Insert".
func DeclName(d *ast.FuncDecl) string {
	name := d.Name.Name
	if d.Recv == nil || len(d.Recv.List) == 0 {
		if d.Type.TypeParams != nil && len(d.Type.TypeParams.List) > 0 {
			name += "[...]"
		}
		return name
	}
	return recvName(d.Recv.List[0].Type) + "." + name
}

// recvName names a receiver type: "T", "(*T)", "T[...]", "(*T[...])".
func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.ParenExpr:
		return recvName(t.X)
	case *ast.StarExpr:
		return "(*" + recvName(t.X) + ")"
	case *ast.IndexExpr:
		return recvName(t.X) + "[...]"
	case *ast.IndexListExpr:
		return recvName(t.X) + "[...]"
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// Elements splits a function's name without its package path at the dots
// outside parentheses and brackets: "(*T[...]).M.func1" gives "(*T[...])",
// "M" and "func1".
func Elements(name string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '.':
			if depth == 0 {
				out = append(out, name[start:i])
				start = i + 1
			}
		}
	}
	return append(out, name[start:])
}
