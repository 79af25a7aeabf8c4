package covdata

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// A span is the body of one function in a source file: the lines and
// columns of its braces, and its name.
type span struct {
	name       string
	line       int // line of the declaration (func keyword)
	start, end pos // the body's braces
}

// A pos is a line and a byte column, both 1-based, as in coverage blocks.
type pos struct{ line, col int }

func (p pos) less(q pos) bool { return p.line < q.line || p.line == q.line && p.col < q.col }

// fileFuncs parses one Go source file of package pkg and returns the spans
// of its functions and closures, sorted by body start. inits is the number
// of init functions and globals the number of closures in package-level
// declarations seen in the package's earlier files; the returned counts
// include this file's.
func fileFuncs(fset *token.FileSet, pkg, path string, src []byte, inits, globals int) ([]span, int, int, error) {
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, inits, globals, err
	}
	var spans []span
	at := func(p token.Pos) pos {
		q := fset.Position(p)
		return pos{q.Line, q.Column}
	}
	// closures names the function literals below n, in source order, with
	// prefix: prefix.func1, prefix.func2, and prefix.funcK.1 for a literal
	// inside prefix.funcK. counter counts the literals at this level.
	var closures func(n ast.Node, prefix string, sep string, counter *int)
	closures = func(n ast.Node, prefix, sep string, counter *int) {
		ast.Inspect(n, func(c ast.Node) bool {
			lit, ok := c.(*ast.FuncLit)
			if !ok || c == n {
				return true
			}
			*counter++
			name := prefix + sep + strconv.Itoa(*counter)
			spans = append(spans, span{name: name, line: at(lit.Type.Func).line, start: at(lit.Body.Lbrace), end: at(lit.Body.Rbrace)})
			inner := 0
			closures(lit, name, ".", &inner)
			return false
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body == nil {
				continue // implemented in assembly
			}
			name := declName(d)
			if name == "init" && d.Recv == nil {
				name = "init." + strconv.Itoa(inits)
				inits++
			}
			full := pkg + "." + name
			spans = append(spans, span{name: full, line: at(d.Type.Func).line, start: at(d.Body.Lbrace), end: at(d.Body.Rbrace)})
			n := 0
			closures(d.Body, full, ".func", &n)
		case *ast.GenDecl:
			closures(d, pkg+".init", ".func", &globals)
		}
	}
	slices.SortFunc(spans, func(a, b span) int {
		if a.start.less(b.start) {
			return -1
		}
		if b.start.less(a.start) {
			return 1
		}
		return 0
	})
	return spans, inits, globals, nil
}

// declName returns the name of a function declaration without its package:
// F, F[...], T.M, (*T).M, T[...].M or (*T[...]).M.
func declName(d *ast.FuncDecl) string {
	name := d.Name.Name
	if d.Recv == nil || len(d.Recv.List) == 0 {
		if d.Type.TypeParams != nil && len(d.Type.TypeParams.List) > 0 {
			name += "[...]"
		}
		return name
	}
	t := d.Recv.List[0].Type
	star := false
	if p, ok := t.(*ast.ParenExpr); ok {
		t = p.X
	}
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	if p, ok := t.(*ast.ParenExpr); ok {
		t = p.X
	}
	var recv string
	switch x := t.(type) {
	case *ast.Ident:
		recv = x.Name
	case *ast.IndexExpr:
		recv = typeName(x.X) + "[...]"
	case *ast.IndexListExpr:
		recv = typeName(x.X) + "[...]"
	default:
		recv = fmt.Sprintf("%T", t)
	}
	if star {
		return "(*" + recv + ")." + name
	}
	return recv + "." + name
}

func typeName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

// owner returns the innermost span whose body contains p, or -1. spans
// are sorted by start; bodies nest or are disjoint.
func owner(spans []span, p pos) int {
	best := -1
	for i, s := range spans {
		if p.less(s.start) {
			break
		}
		if !s.end.less(p) {
			best = i // a later start that still contains p is further in
		}
	}
	return best
}

// isGoFile reports whether a coverage file name names Go source.
func isGoFile(name string) bool { return strings.HasSuffix(name, ".go") }
