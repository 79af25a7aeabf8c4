package opprof

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt/internal/srcfunc"
)

// A Resolver maps source lines to the functions whose bodies enclose them,
// reading each Go file once.
type Resolver struct {
	// Roots are directories where a source file that cannot be read is
	// looked for: the longest tail of its path that names a file under a
	// root is read instead. A test binary built in a worktree that has
	// since been removed (compare caches binaries by commit) names files
	// there; the same commit checked out again has them under its root.
	Roots []string
	files map[string][]span
}

// span is one function's extent in a file.
type span struct {
	name       string
	start, end int
}

// NewResolver returns a Resolver with no files read.
func NewResolver() *Resolver { return &Resolver{files: map[string][]span{}} }

// local returns the innermost function of file enclosing line, without
// the package path, and false when the file cannot be read or parsed or no
// function encloses the line. Package-level numbering (init.N,
// init.funcN) counts from this file alone.
func (r *Resolver) local(file string, line int) (string, bool) {
	spans, ok := r.files[file]
	if !ok {
		spans = nil
		src, err := os.ReadFile(file)
		if err != nil {
			src, err = r.relocated(file)
		}
		if err == nil && strings.HasSuffix(file, ".go") {
			fset := token.NewFileSet()
			if f, _ := parser.ParseFile(fset, file, src, parser.SkipObjectResolution); f != nil && f.Name != nil {
				for _, fn := range srcfunc.File(f, nil) {
					spans = append(spans, span{fn.Name, fset.Position(fn.Node.Pos()).Line, fset.Position(fn.Node.End()).Line})
				}
			}
		}
		r.files[file] = spans
	}
	best := -1
	for i, s := range spans {
		if s.start <= line && line <= s.end && (best < 0 || s.end-s.start < spans[best].end-spans[best].start) {
			best = i
		}
	}
	if best < 0 {
		return "", false
	}
	return spans[best].name, true
}

// pkgOf returns the package path of a symbol: "example.com/m/p" of
// "example.com/m/p.(*T).M".
func pkgOf(sym string) string {
	slash := strings.LastIndexByte(sym, '/')
	dot := strings.IndexByte(sym[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return sym[:slash+1+dot]
}

// Resolve sets each sample's Function: the function whose body encloses
// its line, with the package path of the file's directory. A directory's
// package is learned from the samples whose line lies in the symbol's own
// function (code that was not inlined); a line of a file that cannot be
// read, that no function encloses, or whose directory's package is not
// learned keeps its symbol. Samples are changed in place.
func (r *Resolver) Resolve(samples []Sample) {
	dirPkg := map[string]string{}
	for _, s := range samples {
		name, ok := r.local(s.File, s.Line)
		pkg := pkgOf(s.Symbol)
		if ok && pkg != "" && s.Symbol == pkg+"."+name {
			dirPkg[filepath.Dir(s.File)] = pkg
		}
	}
	for i, s := range samples {
		samples[i].Function = s.Symbol
		name, ok := r.local(s.File, s.Line)
		if !ok {
			continue
		}
		if pkg, ok := dirPkg[filepath.Dir(s.File)]; ok {
			samples[i].Function = pkg + "." + name
		}
	}
}

// relocated reads the file under one of Roots with the longest tail of
// file's path, trying the roots in order for each tail.
func (r *Resolver) relocated(file string) ([]byte, error) {
	parts := strings.Split(filepath.ToSlash(file), "/")
	for i := 1; i < len(parts); i++ {
		tail := filepath.FromSlash(strings.Join(parts[i:], "/"))
		for _, root := range r.Roots {
			if src, err := os.ReadFile(filepath.Join(root, tail)); err == nil {
				return src, nil
			}
		}
	}
	return nil, os.ErrNotExist
}
