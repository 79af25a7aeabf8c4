package changes

import (
	"bytes"
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"
)

// A span is one function's extent in one revision of one file.
type span struct {
	// name is the function's name relative to its package, as the
	// compiler names it: "F", "(*T).M", "Map[...]", "F.func1",
	// "F.func1.2", "init.0", "init.func3".
	name string
	// start and end are the first and last lines (1-based) of the
	// function, from the func keyword to the closing brace.
	start, end int
	// pkgLevel marks names that depend on the package's other files:
	// init functions and closures outside any function (numbered across
	// the package).
	pkgLevel bool
	// hash is the SHA-256 of the function's own tokens: its source
	// without comments, white space and the bodies of nested function
	// literals.
	hash [sha256.Size]byte
}

// parsedFile is one Go file of one revision.
type parsedFile struct {
	pkgName string
	spans   []span
	// inits and pkgClosures count the file's init functions and closures
	// outside any function, which number those of later files.
	inits, pkgClosures int
}

// parseFuncs parses src and returns its functions, with package-level
// names numbered from initBase and closureBase (the counts of the
// package's earlier files). A file that does not parse contributes what the
// parser recovered; ok is false when not even the package clause parsed.
func parseFuncs(src []byte, initBase, closureBase int) (pf parsedFile, ok bool) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, parser.SkipObjectResolution|parser.ParseComments)
	if f == nil || f.Name == nil {
		return parsedFile{}, false
	}
	pf.pkgName = f.Name.Name
	tf := fset.File(f.Pos())
	w := &walker{fset: fset, tf: tf, src: src, out: &pf.spans}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := funcDeclName(d)
			if d.Recv == nil && d.Name.Name == "init" && d.Type.TypeParams == nil {
				name = "init." + strconv.Itoa(initBase+pf.inits)
				pf.inits++
				w.add(name, d, d.Body, true)
				continue
			}
			w.add(name, d, d.Body, false)
		case *ast.GenDecl:
			// Closures in package-level declarations (variable
			// initializers) belong to the package initializer and are
			// numbered across the package: init.func1, init.func2, ...
			ast.Inspect(d, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok {
					pf.pkgClosures++
					w.add("init.func"+strconv.Itoa(closureBase+pf.pkgClosures), lit, lit.Body, true)
					return false
				}
				return true
			})
		}
	}
	return pf, true
}

// walker records the spans of a function and of the closures in it.
type walker struct {
	fset *token.FileSet
	tf   *token.File
	src  []byte
	out  *[]span
}

// add records fn (a *ast.FuncDecl or *ast.FuncLit) named name, then the
// closures directly in body, named name.func1, name.func2, ... (or name.1,
// name.2, ... when fn is itself a closure), recursively.
func (w *walker) add(name string, fn ast.Node, body *ast.BlockStmt, pkgLevel bool) {
	var lits []*ast.FuncLit
	if body != nil {
		ast.Inspect(body, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				lits = append(lits, lit)
				return false // nested closures are numbered by lit
			}
			return true
		})
	}
	s := span{
		name:     name,
		start:    w.fset.Position(fn.Pos()).Line,
		end:      w.fset.Position(fn.End()).Line,
		pkgLevel: pkgLevel,
		hash:     w.ownHash(fn, lits),
	}
	*w.out = append(*w.out, s)
	_, isLit := fn.(*ast.FuncLit)
	for i, lit := range lits {
		sub := name + "." + strconv.Itoa(i+1)
		if !isLit {
			sub = name + ".func" + strconv.Itoa(i+1)
		}
		w.add(sub, lit, lit.Body, pkgLevel)
	}
}

// ownHash hashes the tokens of fn outside the function literals lits, with
// each literal replaced by a marker: comments, white space and the
// positions of tokens do not count, so a comment-only or formatting-only
// change leaves the hash as it was, and a change inside a closure changes
// only the closure's hash.
func (w *walker) ownHash(fn ast.Node, lits []*ast.FuncLit) [sha256.Size]byte {
	start, end := w.tf.Offset(fn.Pos()), w.tf.Offset(fn.End())
	var buf bytes.Buffer
	pos := start
	emit := func(from, to int) {
		if from >= to {
			return
		}
		var s scanner.Scanner
		fs := token.NewFileSet()
		seg := w.src[from:to]
		s.Init(fs.AddFile("", -1, len(seg)), seg, nil, 0)
		for {
			_, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.SEMICOLON && lit == "\n" {
				continue // automatic semicolons depend on line breaks
			}
			buf.WriteString(tok.String())
			buf.WriteByte(' ')
			buf.WriteString(lit)
			buf.WriteByte(0)
		}
	}
	for _, lit := range lits {
		ls, le := w.tf.Offset(lit.Pos()), w.tf.Offset(lit.End())
		emit(pos, ls)
		buf.WriteString("\x01closure\x00")
		pos = le
	}
	emit(pos, end)
	return sha256.Sum256(buf.Bytes())
}

// funcDeclName names a declared function or method as the compiler does,
// with type-argument lists written "[...]" as callgraph.NormalizeName
// writes them: "F", "Map[...]", "T.M", "(*T).M", "(*Tree[...]).Insert".
func funcDeclName(d *ast.FuncDecl) string {
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
		return "(*" + strings.TrimSuffix(strings.TrimPrefix(recvName(t.X), "("), ")") + ")"
	case *ast.IndexExpr:
		return recvName(t.X) + "[...]"
	case *ast.IndexListExpr:
		return recvName(t.X) + "[...]"
	case *ast.Ident:
		return t.Name
	}
	return "?"
}
