package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// root is the module's root directory, relative to this package.
const root = "../.."

// walkGoFiles parses each production Go file under dir (test files,
// testdata directories, hidden directories and nested modules aside, as
// the package documentation says) into fset, with its comments, and calls
// visit with its slash-separated path relative to dir, in lexical order.
func walkGoFiles(dir string, fset *token.FileSet, visit func(rel string, f *ast.File)) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != dir {
				if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
					return filepath.SkipDir
				}
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // a nested module
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		visit(filepath.ToSlash(rel), f)
		return nil
	})
}

// undocumented returns one line per exported name or field without a doc
// comment, and per package without a package comment, in the Go files
// under dir, as "file:line: what", sorted.
func undocumented(dir string) ([]string, error) {
	var out []string
	// documented records, per directory, whether some file has a package
	// comment; first its first file, where a missing one is reported.
	documented := map[string]bool{}
	first := map[string]string{}
	fset := token.NewFileSet()
	err := walkGoFiles(dir, fset, func(rel string, f *ast.File) {
		report := func(pos token.Pos, format string, args ...any) {
			out = append(out, fmt.Sprintf("%s:%d: %s", rel, fset.Position(pos).Line, fmt.Sprintf(format, args...)))
		}
		checkFile(f, report)
		pkgDir := path.Dir(rel)
		if _, ok := first[pkgDir]; !ok {
			first[pkgDir] = rel
		}
		documented[pkgDir] = documented[pkgDir] || f.Doc != nil
	})
	for d, ok := range documented {
		if !ok {
			out = append(out, fmt.Sprintf("%s:1: package in %s has no package comment", first[d], d))
		}
	}
	slices.Sort(out)
	return out, err
}

// checkFile calls report for each undocumented exported name or field of f.
func checkFile(f *ast.File, report func(pos token.Pos, format string, args ...any)) {
	pkg := f.Name.Name
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv := receiverType(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				name = recv + "." + name
			}
			if d.Doc == nil {
				report(d.Pos(), "func %s.%s has no doc comment", pkg, name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					doc := s.Doc
					if doc == nil && !d.Lparen.IsValid() {
						doc = d.Doc
					}
					if doc == nil {
						report(s.Pos(), "type %s.%s has no doc comment", pkg, s.Name.Name)
					}
					checkMembers(pkg+"."+s.Name.Name, s.Type, report)
				case *ast.ValueSpec:
					if s.Doc != nil || s.Comment != nil || d.Doc != nil {
						continue
					}
					for _, n := range s.Names {
						if n.IsExported() {
							report(n.Pos(), "%s %s.%s has no doc comment", d.Tok, pkg, n.Name)
						}
					}
				}
			}
		}
	}
}

// checkMembers reports the undocumented exported fields of a struct type
// and methods of an interface type, recursing into nested struct types.
func checkMembers(owner string, typ ast.Expr, report func(pos token.Pos, format string, args ...any)) {
	var list *ast.FieldList
	kind := "field"
	switch t := typ.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list, kind = t.Methods, "method"
	case *ast.StarExpr:
		checkMembers(owner, t.X, report)
		return
	case *ast.ArrayType:
		checkMembers(owner, t.Elt, report)
		return
	case *ast.MapType:
		checkMembers(owner, t.Value, report)
		return
	default:
		return
	}
	for _, f := range list.List {
		names := f.Names
		if len(names) == 0 { // embedded
			if n := receiverType(f.Type); ast.IsExported(n) && kind == "field" {
				names = []*ast.Ident{{Name: n, NamePos: f.Pos()}}
			}
		}
		var exported []string
		for _, n := range names {
			if n.IsExported() {
				exported = append(exported, n.Name)
			}
		}
		if len(exported) == 0 {
			continue
		}
		if f.Doc == nil && f.Comment == nil {
			report(f.Pos(), "%s %s.%s has no doc comment", kind, owner, strings.Join(exported, ", "))
		}
		checkMembers(owner+"."+exported[0], f.Type, report)
	}
}

// receiverType returns the name of the (base) type of a receiver or
// embedded field expression: T, *T, T[P], pkg.T.
func receiverType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return receiverType(t.X)
	case *ast.IndexExpr:
		return receiverType(t.X)
	case *ast.IndexListExpr:
		return receiverType(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

// TestEveryExportedNameIsDocumented fails listing each exported name or
// exported struct field of the module that has no doc comment.
func TestEveryExportedNameIsDocumented(t *testing.T) {
	missing, err := undocumented(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing {
		t.Error(m)
	}
	if len(missing) > 0 {
		t.Logf("%d exported names or fields without a doc comment; see go doc's conventions and internal/doccheck's package doc", len(missing))
	}
}

func TestCheckFile(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // reported lines, "line: what"; src's first line is 2
	}{
		{"documented", `
// T is documented.
type T struct {
	// A is documented.
	A int
	B int // B has a line comment.
	// C and D share one comment.
	C, D int
	e int
}`, nil},
		{"undocumented type and fields", `
type T struct {
	A int
	B, C string
	Inner struct {
		X int
	} // Inner is documented, X is not.
	*Embedded
}`, []string{
			"2: type p.T has no doc comment",
			"3: field p.T.A has no doc comment",
			"4: field p.T.B, C has no doc comment",
			"6: field p.T.Inner.X has no doc comment",
			"8: field p.T.Embedded has no doc comment",
		}},
		{"functions and methods", `
func F() {}
func f() {}
type t int
func (t) M() {}
// T is documented.
type T int
func (*T) M() {}
// G is documented.
func G() {}`, []string{
			"2: func p.F has no doc comment",
			"8: func p.T.M has no doc comment",
		}},
		{"constants and variables", `
const A = 1
// Group doc covers its members.
const (
	B = iota
	C
)
var (
	D = 1 // D has a line comment.
	E = 2
	e = 3
)`, []string{
			"2: const p.A has no doc comment",
			"10: var p.E has no doc comment",
		}},
		{"interface methods and grouped types", `
// I is documented.
type I interface {
	M()
	// N is documented.
	N()
}
// Group doc does not cover types.
type (
	U int
	// V is documented.
	V int
)`, []string{
			"4: method p.I.M has no doc comment",
			"10: type p.U has no doc comment",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", "package p"+tt.src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			checkFile(f, func(pos token.Pos, format string, args ...any) {
				// Line 1 is the package clause, so lines count as in want.
				got = append(got, fmt.Sprintf("%d: %s", fset.Position(pos).Line, fmt.Sprintf(format, args...)))
			})
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("checkFile reported\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestEveryLibraryPackageHasAnExample fails for each library package (not
// internal, not a command, not test support) without a runnable Example: a func Example…
// in a _test.go file with an "Output:" comment, which go test checks.
func TestEveryLibraryPackageHasAnExample(t *testing.T) {
	has := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || d.Name() == "internal" || d.Name() == "cmd" || d.Name() == "testkit" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		dir, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		if _, ok := has[dir]; !ok {
			has[dir] = false
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Example") {
				continue
			}
			for _, c := range f.Comments {
				if c.Pos() > fn.Body.Lbrace && c.End() < fn.Body.Rbrace && strings.HasPrefix(c.Text(), "Output:") {
					has[dir] = true
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range slices.Sorted(maps.Keys(has)) {
		if !has[dir] {
			t.Errorf("package %s has no Example with checked output: add one to %s/example_test.go", filepath.ToSlash(dir), filepath.ToSlash(dir))
		}
	}
}
