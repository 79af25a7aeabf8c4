package covdata

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"

	"github.com/mbopt/mbopt/internal/srcfunc"
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
	c := srcfunc.Counters{Inits: inits, Closures: globals}
	for _, fn := range srcfunc.File(f, &c) {
		if fn.Body == nil {
			continue // implemented in assembly
		}
		line := 0
		switch n := fn.Node.(type) {
		case *ast.FuncDecl:
			line = at(n.Type.Func).line
		case *ast.FuncLit:
			line = at(n.Type.Func).line
		}
		spans = append(spans, span{name: pkg + "." + fn.Name, line: line, start: at(fn.Body.Lbrace), end: at(fn.Body.Rbrace)})
	}
	inits, globals = c.Inits, c.Closures
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
