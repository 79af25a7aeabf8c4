// Package fieldtest checks a package's setting names: the constants of type
// mbopt.Field that name the fields of its configuration structs, in the
// errors it returns and in the flags a front end binds to them. Each
// package's test calls [Check] with its configuration types, so a constant
// whose field is renamed or removed fails the test instead of naming
// nothing.
package fieldtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// Check parses the non-test Go files of the current directory (the package
// under test) and checks every constant declared with the type mbopt.Field:
// its value is a string literal, a dot-separated path of fields, through
// embedded structs, pointers, slices and maps as Go's selectors and index
// expressions reach them, of one of the struct types given; and its name
// is "Field" followed by the path without its dots ("Settings.Trials" is
// FieldSettingsTrials), the module's one convention. It fails t for the
// package when there is no such constant at all.
func Check(t testing.TB, structs ...reflect.Type) {
	t.Helper()
	consts, err := fieldConsts(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(consts) == 0 {
		t.Fatal("no constant of type mbopt.Field in the package")
	}
	for _, c := range consts {
		if c.path == "" {
			t.Errorf("%s: %s: write the field path as a string literal", c.pos, c.name)
			continue
		}
		if want := "Field" + strings.ReplaceAll(c.path, ".", ""); c.name != want {
			t.Errorf("%s: %s names %q: call it %s", c.pos, c.name, c.path, want)
		}
		if !inAny(c.path, structs) {
			t.Errorf("%s: %s names %q, which is not a field of %v", c.pos, c.name, c.path, structs)
		}
	}
}

// A fieldConst is a constant of type mbopt.Field as declared.
type fieldConst struct {
	pos  token.Position
	name string
	path string // "" when the value is not a string literal
}

// fieldConsts returns the constants of type mbopt.Field declared in the
// non-test Go files of dir, in file and source order.
func fieldConsts(dir string) ([]fieldConst, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var out []fieldConst
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if !isField(vs.Type) {
					continue
				}
				for i, n := range vs.Names {
					c := fieldConst{pos: fset.Position(n.Pos()), name: n.Name}
					if i < len(vs.Values) {
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							c.path, _ = strconv.Unquote(lit.Value)
						}
					}
					out = append(out, c)
				}
			}
		}
	}
	return out, nil
}

// isField reports whether the type expression is mbopt.Field.
func isField(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Field" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "mbopt"
}

// inAny reports whether path names a field of one of structs.
func inAny(path string, structs []reflect.Type) bool {
	for _, s := range structs {
		if In(s, path) {
			return true
		}
	}
	return false
}

// In reports whether path, such as "Settings.Trials", names a field of the
// struct type s: each name a field (promoted ones too) of the struct the
// path has reached, after any pointers, slices, arrays and maps (their
// elements).
func In(s reflect.Type, path string) bool {
	t := s
	for name := range strings.SplitSeq(path, ".") {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return false
		}
		f, ok := t.FieldByName(name)
		if !ok || !f.IsExported() {
			return false
		}
		t = f.Type
	}
	return true
}
