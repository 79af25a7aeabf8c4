package analysis

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/gomod"
	"github.com/mbopt/mbopt/internal/srcfunc"
)

// sourceDir returns where the application's source may be: Static.Dir,
// else Dir, else the current directory.
func sourceDir(cfg Config) string {
	for _, d := range []string{cfg.Static.Dir, cfg.Dir} {
		if d != "" {
			return d
		}
	}
	return "."
}

// sourceLines returns each application node's declaration size in lines,
// from its func keyword to its closing brace, read with go/parser from the
// source of the module whose go.mod is in dir or its nearest parent (0 for
// nodes outside that module, or whose source is missing). A declaration
// counts only when it starts on the line the profile records for the node
// (callgraph.Node.Line, when known), so source that changed since the
// profile was taken gives no size instead of a wrong one. It returns nil
// when there is no module or no project function in it.
func sourceLines(app *callgraph.Graph, dir string) []int {
	m, err := gomod.Find(dir)
	if err != nil {
		return nil
	}
	mod, root := m.Path, m.Dir
	byPkg := map[string][]int{}
	for v, n := range app.Nodes {
		if n.Project && callgraph.IsBelow(n.Package, mod) {
			byPkg[n.Package] = append(byPkg[n.Package], v)
		}
	}
	if len(byPkg) == 0 {
		return nil
	}
	lines := make([]int, app.Len())
	for pkg := range byPkg {
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, mod), "/")
		for name, size := range packageSizes(filepath.Join(root, filepath.FromSlash(rel))) {
			v, ok := app.Lookup(pkg + "." + name)
			if !ok {
				continue
			}
			if n := app.Nodes[v]; n.Line == 0 || n.Line == size.start {
				lines[v] = size.lines
			}
		}
	}
	return lines
}

// declSize is a function's first line and size in lines.
type declSize struct{ start, lines int }

// packageSizes returns the declaration size of every function and closure
// of the non-test Go files in dir, by the compiler's name without the
// package (see package srcfunc); files that do not parse are left out.
func packageSizes(dir string) map[string]declSize {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, n)
		}
	}
	slices.Sort(files) // the order the compiler numbers package-level closures in
	out := map[string]declSize{}
	fset := token.NewFileSet()
	var c srcfunc.Counters
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, fn := range srcfunc.File(f, &c) {
			start, end := fset.Position(fn.Node.Pos()).Line, fset.Position(fn.Node.End()).Line
			if _, dup := out[fn.Name]; !dup {
				out[fn.Name] = declSize{start: start, lines: end - start + 1}
			}
		}
	}
	return out
}
