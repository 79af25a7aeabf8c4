package mutate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/srcfunc"
)

// FieldFunc names the setting that chooses the function to slow down in
// the errors of [Find] (mbopt mutate's --func).
const FieldFunc mbopt.Field = "Func"

// SpinName is the name of the busy loop a mutant adds to the function's
// package; its symbol is the package path + "." + SpinName.
const SpinName = "mboptMutantSpin"

// A Site is a function a mutant slows down: where it is declared.
type Site struct {
	// Function is the function's full name, as a profile names it
	// ("example.com/m/p.F", "example.com/m/p.(*T).M").
	Function string
	// Package is its package's import path.
	Package string
	// Dir is the package's directory.
	Dir string
	// File is the file that declares the function.
	File string
	// body is the offset of the function body's opening brace in File.
	body int
	// src is File's content.
	src []byte
}

// Find finds the declaration of function (a full name, as a profile
// names it) among the packages of the module in dir. A closure, a
// function without a body (assembly) or one not declared in the module is
// an input error naming Field("Func").
func Find(ctx context.Context, dir, function string) (*Site, error) {
	pkg, name, ok := split(function)
	if !ok {
		return nil, mbopt.Errorf("%s %q is not a function's full name (package path + \".\" + name, as a profile names it: example.com/m/p.F)", FieldFunc, function)
	}
	if els := srcfunc.Elements(name); len(els) > 2 || len(els) == 2 && (closure.MatchString(els[1]) || !strings.HasSuffix(els[0], ")") && !isIdent(els[0])) {
		return nil, mbopt.Errorf("%s %s is a closure or a nested function; name the declared function it is in", FieldFunc, function)
	}
	cmd := exec.CommandContext(ctx, "go", "list", "-json=Dir,GoFiles", "--", pkg)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, mbopt.Errorf("%s %s: go list %s in %s: %s", FieldFunc, function, pkg, dir, strings.TrimSpace(stderr.String()))
	}
	var p struct {
		Dir     string
		GoFiles []string
	}
	if err := json.Unmarshal(out, &p); err != nil {
		return nil, fmt.Errorf("go list %s: %w", pkg, err)
	}
	fset := token.NewFileSet()
	for _, f := range p.GoFiles {
		path := filepath.Join(p.Dir, f)
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || srcfunc.DeclName(fd) != name {
				continue
			}
			if fd.Body == nil {
				return nil, mbopt.Errorf("%s %s has no Go body (assembly); it cannot be slowed down here", FieldFunc, function)
			}
			return &Site{Function: function, Package: pkg, Dir: p.Dir, File: path, body: fset.Position(fd.Body.Lbrace).Offset, src: src}, nil
		}
	}
	return nil, mbopt.Errorf("%s %s: package %s declares no function %s", FieldFunc, function, pkg, name)
}

// closure matches the name of a closure within its function: "func1",
// or "1" within a closure.
var closure = regexp.MustCompile(`^(func)?[0-9]+$`)

// split splits a function's full name into its package path and its name
// in the package.
func split(full string) (pkg, name string, ok bool) {
	slash := strings.LastIndex(full, "/")
	dot := strings.Index(full[slash+1:], ".")
	if dot <= 0 {
		return "", "", false
	}
	pkg, name = full[:slash+1+dot], full[slash+1+dot+1:]
	return pkg, name, name != ""
}

// isIdent reports whether s is a receiver type name without pointer or
// type arguments ("T" in "T.M").
func isIdent(s string) bool { return token.IsIdentifier(strings.TrimSuffix(s, "[...]")) }

// Source returns the site's file with a call of the busy loop, running
// iterations iterations, at the function's entry, and the loop's
// declaration at the end. The call goes on the line of the body's
// opening brace, so no other line of the file moves.
func (s *Site) Source(iterations int) []byte {
	return s.source(fmt.Sprintf("%s(%d);", SpinName, iterations), SpinName)
}

// source returns the site's file with calls at the function's entry, on
// the line of the body's opening brace (so no other line moves), and a
// busy loop named by each of spins at the end.
func (s *Site) source(calls string, spins ...string) []byte {
	var b bytes.Buffer
	b.Write(s.src[:s.body+1])
	b.WriteString(" " + calls)
	b.Write(s.src[s.body+1:])
	for _, name := range spins {
		fmt.Fprintf(&b, `

// %[1]s is mbopt mutate's busy loop: n iterations that the compiler
// keeps, each a store to a package variable.
//
//go:noinline
func %[1]s(n int) {
	for i := 0; i < n; i++ {
		%[1]sSink += uint64(i)
	}
}

// %[1]sSink keeps %[1]s's loop.
var %[1]sSink uint64
`, name)
	}
	return b.Bytes()
}

// Overlay writes the mutant's file (Source(iterations)) and a go build
// -overlay file that puts it in place of the site's file into dir, and
// returns the overlay file's path. root, when not "", is a copy of the
// module (a worktree) to build instead: the overlay then replaces the file
// at the same path under root.
func (s *Site) Overlay(dir string, iterations int, moduleRoot, root string) (string, error) {
	return s.overlay(dir, s.Source(iterations), moduleRoot, root)
}

// overlay writes src as the site's file and the overlay that puts it in
// place (see [Site.Overlay]).
func (s *Site) overlay(dir string, src []byte, moduleRoot, root string) (string, error) {
	target := s.File
	if root != "" {
		rel, err := filepath.Rel(moduleRoot, s.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			return "", fmt.Errorf("%s is not under the module root %s", s.File, moduleRoot)
		}
		target = filepath.Join(root, rel)
	}
	mutant := filepath.Join(dir, "mutant_"+filepath.Base(s.File))
	if err := os.WriteFile(mutant, src, 0o644); err != nil {
		return "", err
	}
	data, err := json.Marshal(map[string]map[string]string{"Replace": {target: mutant}})
	if err != nil {
		return "", err
	}
	overlay := filepath.Join(dir, "overlay.json")
	return overlay, os.WriteFile(overlay, data, 0o644)
}
