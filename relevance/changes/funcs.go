package changes

import (
	"bytes"
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"

	"github.com/mbopt/mbopt/internal/srcfunc"
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
	w := &walker{fset: fset, tf: fset.File(f.Pos()), src: src}
	c := srcfunc.Counters{Inits: initBase, Closures: closureBase}
	for _, fn := range srcfunc.File(f, &c) {
		pf.spans = append(pf.spans, span{
			name:     fn.Name,
			start:    fset.Position(fn.Node.Pos()).Line,
			end:      fset.Position(fn.Node.End()).Line,
			pkgLevel: fn.PkgLevel,
			hash:     w.ownHash(fn.Node, srcfunc.Closures(fn.Body)),
		})
	}
	pf.inits, pf.pkgClosures = c.Inits-initBase, c.Closures-closureBase
	return pf, true
}

// walker hashes the tokens of one parsed file.
type walker struct {
	fset *token.FileSet
	tf   *token.File
	src  []byte
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
