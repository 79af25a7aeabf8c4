package collect

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
)

// A Package is a package with benchmarks.
type Package struct {
	// Path is the import path.
	Path string
	// Dir is the package directory (absolute).
	Dir string
	// Module and ModuleDir are the path and root directory of the
	// package's module; empty outside modules.
	Module, ModuleDir string
	// Benchmarks are the top-level benchmark functions declared in the
	// package's _test.go files (internal and external test package),
	// sorted. The test binary's -test.list is authoritative; this list
	// names benchmarks when the binary cannot be built.
	Benchmarks []string
	// Parents are the benchmarks among Benchmarks whose source may create
	// sub-benchmarks (it selects the Run method of its *testing.B, or a
	// function of its test package it passes that to does), sorted. Only
	// these, and benchmarks the source does not declare, get a discovery
	// run; see "Discovery" in the package documentation.
	Parents []string
}

// Discover returns the packages matched by cfg.Patterns whose test files
// declare benchmarks, sorted by import path. It loads package metadata with
// go/packages (tests included, with cfg.Tags and cfg.Mod) and parses only the
// _test.go files, so packages that do not type-check are still found. It
// fails when the go command fails, and with an [*mbopt.Error] (Field
// "Patterns") when the patterns match no package at all, naming each
// pattern's problem; per-package errors are left to the build.
func Discover(ctx context.Context, cfg Config) ([]Package, error) {
	pcfg := &packages.Config{
		Context:    ctx,
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedModule | packages.NeedForTest,
		Tests:      true,
		Dir:        cfg.Dir,
		Env:        cfg.env(),
		BuildFlags: cfg.buildFlags(),
	}
	pkgs, err := packages.Load(pcfg, cfg.patterns()...)
	if err != nil {
		return nil, fmt.Errorf("listing packages %s: %w", strings.Join(cfg.patterns(), " "), err)
	}
	type acc struct {
		pkg   Package
		files map[string]bool
	}
	byPath := make(map[string]*acc)
	var loadErrs []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, e.Msg)
		}
		if p.Name == "main" && strings.HasSuffix(p.PkgPath, ".test") {
			continue // the generated test main package
		}
		under := p.PkgPath
		if p.ForTest != "" {
			under = p.ForTest
		}
		a := byPath[under]
		if a == nil {
			a = &acc{pkg: Package{Path: under}, files: make(map[string]bool)}
			byPath[under] = a
		}
		if p.PkgPath == under && p.Dir != "" {
			a.pkg.Dir = p.Dir
		}
		if p.Module != nil && a.pkg.Module == "" {
			a.pkg.Module, a.pkg.ModuleDir = p.Module.Path, p.Module.Dir
		}
		for _, f := range p.GoFiles {
			if strings.HasSuffix(f, "_test.go") {
				a.files[f] = true
			}
		}
	}
	var out []Package
	for _, a := range byPath {
		files := make([]string, 0, len(a.files))
		for f := range a.files {
			files = append(files, f)
		}
		slices.Sort(files)
		a.pkg.Benchmarks, a.pkg.Parents = declaredBenchmarks(files)
		if len(a.pkg.Benchmarks) == 0 {
			continue
		}
		if a.pkg.Dir == "" {
			a.pkg.Dir = filepath.Dir(files[0])
		}
		out = append(out, a.pkg)
	}
	slices.SortFunc(out, func(a, b Package) int { return strings.Compare(a.Path, b.Path) })
	if len(out) == 0 && len(loadErrs) > 0 {
		slices.Sort(loadErrs)
		dir, _ := filepath.Abs(cfg.Dir)
		return nil, FieldPatterns.Errorf("no package matches %s in %s: %s", strings.Join(cfg.patterns(), " "), dir, strings.Join(slices.Compact(loadErrs), "; "))
	}
	return out, nil
}

// declaredBenchmarks returns the sorted names of the benchmark functions
// declared in files, and of those that may create sub-benchmarks (see
// parentBenchmarks). Files that do not parse contribute what the parser
// recovered.
func declaredBenchmarks(files []string) (names, parents []string) {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		af, _ := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if af == nil {
			continue
		}
		parsed = append(parsed, af)
		for _, d := range af.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && isBenchmarkFunc(fn) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names), parentBenchmarks(parsed)
}

// isBenchmarkFunc reports whether fn is a benchmark by go test's rules: a
// plain function named Benchmark or BenchmarkX with X not a lower-case
// letter, taking one *testing.B (any import name) and returning nothing.
func isBenchmarkFunc(fn *ast.FuncDecl) bool {
	name := fn.Name.Name
	if fn.Recv != nil || !strings.HasPrefix(name, "Benchmark") {
		return false
	}
	if rest := name[len("Benchmark"):]; rest != "" {
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLower(r) {
			return false
		}
	}
	t := fn.Type
	if t.TypeParams != nil || t.Results != nil && len(t.Results.List) > 0 {
		return false
	}
	if t.Params == nil || len(t.Params.List) != 1 || len(t.Params.List[0].Names) > 1 {
		return false
	}
	star, ok := t.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch x := star.X.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name == "B"
	case *ast.Ident:
		return x.Name == "B" // dot-imported testing
	}
	return false
}
