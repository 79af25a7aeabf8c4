package changes

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/build"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/mbopt/mbopt/internal/gitrev"
)

// Options says which change to map. The zero value maps the uncommitted and
// committed changes of the repository in the current directory since its
// merge-base with the default branch.
type Options struct {
	// Dir is a directory inside the repository; "" means the current
	// directory.
	Dir string
	// Base is the base revision; "" means the merge-base of Head (or HEAD)
	// with the default branch (see [gitrev.ResolveBase]).
	Base string
	// Head is the head revision; "" means the work tree, with uncommitted
	// changes and untracked files that are not ignored.
	Head string
}

// A Change says how a function changed.
type Change string

// The changes of a function.
const (
	// FuncModified is a function in both revisions whose code differs.
	FuncModified Change = "modified"
	// FuncAdded is a function only in the head.
	FuncAdded Change = "added"
	// FuncDeleted is a function only in the base.
	FuncDeleted Change = "deleted"
)

// A Function is a changed function.
type Function struct {
	// Name is the function's name as a CPU profile names it after
	// callgraph.NormalizeName: "example.com/m/pkg.(*T).M.func1".
	Name string `json:"name"`
	// Change says how it changed.
	Change Change `json:"change"`
	// File is the slash-separated path, relative to the repository's
	// root, of the file declaring it: in the head, or in the base for a
	// deleted function.
	File string `json:"file"`
	// Line is the function's first line in File.
	Line int `json:"line"`
}

// Lines are changed lines of Go code that lie outside every function:
// package-level declarations (variables, constants, types), imports and the
// package clause. Their effect on functions is not traced.
type Lines struct {
	// File is the slash-separated path relative to the repository's root,
	// in the base when Base is set, else in the head.
	File string `json:"file"`
	// Base marks lines removed from the base; otherwise they are lines of
	// the head.
	Base bool `json:"base,omitempty"`
	// From is the first line.
	From int `json:"from"`
	// To is the last line, inclusive.
	To int `json:"to"`
}

// A Skip is a changed Go file that names no function, with the reason.
type Skip struct {
	// Path is the file's slash-separated path relative to the
	// repository's root.
	Path string `json:"path"`
	// Reason says why it was left out.
	Reason string `json:"reason"`
}

// Result is the outcome of [Diff].
type Result struct {
	// Base is the resolved base revision.
	Base gitrev.Base `json:"-"`
	// Head is Options.Head: a revision, or "" for the work tree.
	Head string `json:"head"`
	// Files are the changed Go files, sorted by Path.
	Files []File `json:"files"`
	// Functions are the changed functions, sorted by Name.
	Functions []Function `json:"functions"`
	// Outside are the changed lines of code outside every function,
	// sorted by file, then base before head, then line.
	Outside []Lines `json:"outside,omitempty"`
	// Skipped are changed Go files that belong to no package of a module
	// (outside any module, or under testdata, vendor or a directory
	// whose name starts with "." or "_"), sorted by path.
	Skipped []Skip `json:"skipped,omitempty"`

	match *matcher
}

// Diff maps the changes between opts.Base and opts.Head to the functions
// they change. It lists the changed Go files with git diff -U0 -M, parses
// both revisions of each (the base with git show, never checking anything
// out) and attributes every changed line to the innermost function that
// contains it, closures included. A function counts as changed when its
// own code differs between the revisions, ignoring comments, white space
// and the closures inside it (which count on their own): a comment-only or
// formatting-only edit changes nothing. A file renamed within its package
// changes only what its hunks change; a file moved to another package
// deletes its functions under the old names and adds them under the new
// ones. Functions are named as package callgraph names profile functions;
// see the package documentation for the rules.
//
// It fails when the directory is not in a git repository, when a revision
// names no commit, or when there is no default branch and no Base.
func Diff(ctx context.Context, opts Options) (*Result, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	top, err := gitrev.TopLevel(ctx, dir)
	if err != nil {
		return nil, err
	}
	base, err := gitrev.ResolveBase(ctx, dir, opts.Base, opts.Head)
	if err != nil {
		return nil, err
	}
	headRev := ""
	if opts.Head != "" {
		if headRev, err = gitrev.Commit(ctx, dir, opts.Head); err != nil {
			return nil, err
		}
	}
	files, err := diffFiles(ctx, top, base.Commit, headRev)
	if err != nil {
		return nil, err
	}
	m := &mapper{
		base: newTree(ctx, top, base.Commit),
		head: newTree(ctx, top, headRev),
		all:  [2]map[string]located{{}, {}},
		cand: map[string]bool{},
	}
	res := &Result{Base: base, Head: opts.Head, Files: files}
	for _, f := range files {
		if err := m.file(f, res); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for name := range m.cand {
		b, inBase := m.all[0][name]
		h, inHead := m.all[1][name]
		switch {
		case inBase && inHead && b.hash != h.hash:
			res.Functions = append(res.Functions, Function{Name: name, Change: FuncModified, File: h.file, Line: h.start})
		case inHead && !inBase:
			res.Functions = append(res.Functions, Function{Name: name, Change: FuncAdded, File: h.file, Line: h.start})
		case inBase && !inHead:
			res.Functions = append(res.Functions, Function{Name: name, Change: FuncDeleted, File: b.file, Line: b.start})
		}
	}
	slices.SortFunc(res.Functions, func(a, b Function) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(res.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(res.Skipped, func(a, b Skip) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(res.Outside, func(a, b Lines) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Base != b.Base {
			if a.Base {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.From, b.From)
	})
	return res, nil
}

// located is a span with its file.
type located struct {
	span
	file string
}

// mapper accumulates the functions of the changed files of both revisions.
type mapper struct {
	base, head *tree
	// all holds every function of the parsed files, by full name, of the
	// base (0) and the head (1).
	all [2]map[string]located
	// cand are the names of functions some changed line lies in.
	cand map[string]bool
}

// file maps the changed lines of f.
func (m *mapper) file(f File, res *Result) error {
	type side struct {
		t     *tree
		path  string
		lines []lineRange
		whole bool // every function is a candidate
	}
	var sides [2]*side
	moved := f.Status == Renamed && path.Dir(f.OldPath) != path.Dir(f.Path)
	switch f.Status {
	case Modified:
		sides[0] = &side{m.base, f.Path, f.baseLines, false}
		sides[1] = &side{m.head, f.Path, f.headLines, false}
	case Renamed:
		sides[0] = &side{m.base, f.OldPath, f.baseLines, moved}
		sides[1] = &side{m.head, f.Path, f.headLines, moved}
	case Added:
		sides[1] = &side{m.head, f.Path, f.headLines, true}
	case Deleted:
		sides[0] = &side{m.base, f.Path, f.baseLines, true}
	}
	for i, s := range sides {
		if s == nil {
			continue
		}
		src, ok, err := s.t.read(s.path)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%s: listed as changed by git diff but not readable in %s", s.path, s.t.describe())
		}
		prefix, reason, err := s.t.pkgPrefix(s.path, src)
		if err != nil {
			return err
		}
		if reason != "" {
			if !slices.ContainsFunc(res.Skipped, func(k Skip) bool { return k.Path == s.path }) {
				res.Skipped = append(res.Skipped, Skip{Path: s.path, Reason: reason})
			}
			continue
		}
		pf, ok := parseFuncs(src, 0, 0)
		if !ok {
			res.Skipped = append(res.Skipped, Skip{Path: s.path, Reason: "does not parse as Go (no package clause)"})
			continue
		}
		hit := func(sp span) bool {
			if s.whole {
				return true
			}
			return slices.ContainsFunc(s.lines, func(r lineRange) bool { return r.overlaps(sp.start, sp.end) })
		}
		if slices.ContainsFunc(pf.spans, func(sp span) bool { return sp.pkgLevel && hit(sp) }) {
			// Package-level names are numbered across the package's
			// files: count those of the files before this one.
			inits, closures, err := s.t.countBefore(s.path, pf.pkgName)
			if err != nil {
				return err
			}
			pf, _ = parseFuncs(src, inits, closures)
		}
		for _, sp := range pf.spans {
			name := prefix + "." + sp.name
			m.all[i][name] = located{sp, s.path}
			if hit(sp) {
				m.cand[name] = true
			}
		}
		if !s.whole {
			res.Outside = append(res.Outside, outside(src, s.path, i == 0, s.lines, pf.spans)...)
		}
	}
	return nil
}

// outside returns the changed lines of src outside every span that hold
// code (a token other than a comment), merged into ranges.
func outside(src []byte, file string, base bool, lines []lineRange, spans []span) []Lines {
	code := codeLines(src)
	var out []Lines
	for _, r := range lines {
		for l := r.from; l <= r.to; l++ {
			if !code[l] || slices.ContainsFunc(spans, func(sp span) bool { return sp.start <= l && l <= sp.end }) {
				continue
			}
			if n := len(out); n > 0 && out[n-1].To == l-1 {
				out[n-1].To = l
				continue
			}
			out = append(out, Lines{File: file, Base: base, From: l, To: l})
		}
	}
	return out
}

// codeLines returns the lines of src on which a token other than a comment
// starts or continues.
func codeLines(src []byte) map[int]bool {
	fs := token.NewFileSet()
	tf := fs.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(tf, src, nil, 0)
	lines := map[int]bool{}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		first := tf.Line(pos)
		lines[first] = true
		for i := range strings.Count(lit, "\n") {
			lines[first+i+1] = true
		}
	}
	return lines
}

// tree reads files of one revision, or of the work tree when rev is "".
type tree struct {
	ctx      context.Context
	top, rev string
	files    map[string][]byte // nil value: absent
	dirs     map[string][]string
	mods     map[string]string // directory → module path, "" when none
}

func newTree(ctx context.Context, top, rev string) *tree {
	return &tree{ctx: ctx, top: top, rev: rev, files: map[string][]byte{}, dirs: map[string][]string{}, mods: map[string]string{}}
}

func (t *tree) describe() string {
	if t.rev == "" {
		return "the work tree"
	}
	return "revision " + t.rev
}

// read returns the content of the slash-separated path p relative to the
// root, and whether it exists as a file.
func (t *tree) read(p string) ([]byte, bool, error) {
	if data, ok := t.files[p]; ok {
		return data, data != nil, nil
	}
	var data []byte
	if t.rev == "" {
		d, err := os.ReadFile(filepath.Join(t.top, filepath.FromSlash(p)))
		if err != nil && !errors.Is(err, os.ErrNotExist) && !isDirErr(err) {
			return nil, false, err
		}
		if err == nil {
			data = append(d, 0)[:len(d)] // non-nil even when empty
		}
	} else {
		if _, err := gitrev.Git(t.ctx, t.top, "cat-file", "-e", t.rev+":"+p); err == nil {
			d, err := gitrev.Git(t.ctx, t.top, "cat-file", "blob", t.rev+":"+p)
			if err != nil {
				return nil, false, err
			}
			data = append(d, 0)[:len(d)]
		} else if t.ctx.Err() != nil {
			return nil, false, t.ctx.Err()
		}
	}
	t.files[p] = data
	return data, data != nil, nil
}

func isDirErr(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "is a directory")
}

// goFiles returns the names of the .go files in the slash-separated
// directory d, sorted.
func (t *tree) goFiles(d string) ([]string, error) {
	if names, ok := t.dirs[d]; ok {
		return names, nil
	}
	var names []string
	if t.rev == "" {
		entries, err := os.ReadDir(filepath.Join(t.top, filepath.FromSlash(d)))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
				names = append(names, e.Name())
			}
		}
	} else {
		spec := t.rev + ":"
		if d != "." {
			spec += d
		}
		out, err := gitrev.Git(t.ctx, t.top, "ls-tree", "-z", "--name-only", spec)
		if err != nil {
			return nil, err
		}
		for _, n := range strings.Split(string(out), "\x00") {
			if strings.HasSuffix(n, ".go") {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	t.dirs[d] = names
	return names, nil
}

// module returns the path of the module whose go.mod lies in the
// slash-separated directory d or its nearest parent, and that directory.
func (t *tree) module(d string) (mod, root string, err error) {
	for {
		if m, ok := t.mods[d]; ok && m != "" {
			return m, d, nil
		}
		data, ok, err := t.read(path.Join(d, "go.mod"))
		if err != nil {
			return "", "", err
		}
		if ok {
			if m := modfile.ModulePath(data); m != "" {
				t.mods[d] = m
				return m, d, nil
			}
		}
		if d == "." {
			return "", "", nil
		}
		d = path.Dir(d)
	}
}

// pkgPrefix returns the prefix of the names of the functions in the Go file
// p with content src: its package's import path ("main" for a command, with
// "_test" appended for an external test package), or a reason why the file
// belongs to no package of a module.
func (t *tree) pkgPrefix(p string, src []byte) (prefix, reason string, err error) {
	d := path.Dir(p)
	mod, root, err := t.module(d)
	if err != nil {
		return "", "", err
	}
	if mod == "" {
		return "", "not in a Go module (no go.mod in its directory or above)", nil
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(d, root), "/")
	if root == "." {
		rel = d
	}
	if rel == "." {
		rel = ""
	}
	for _, elem := range strings.Split(rel, "/") {
		if elem == "testdata" || elem == "vendor" || strings.HasPrefix(elem, ".") || strings.HasPrefix(elem, "_") {
			return "", "in a directory the go command ignores (" + elem + ")", nil
		}
	}
	pf, ok := parseFuncs(src, 0, 0)
	if !ok {
		return "", "does not parse as Go (no package clause)", nil
	}
	if pf.pkgName == "main" {
		return "main", "", nil
	}
	imp := mod
	if rel != "" {
		imp += "/" + rel
	}
	if strings.HasSuffix(p, "_test.go") && strings.HasSuffix(pf.pkgName, "_test") {
		imp += "_test"
	}
	return imp, "", nil
}

// countBefore returns the number of init functions and of closures outside
// any function in the files of p's package that the compiler reads before
// p: the files of the same directory and package name that the default
// build context selects, non-test files first, each group sorted by name.
func (t *tree) countBefore(p, pkgName string) (inits, closures int, err error) {
	d, base := path.Dir(p), path.Base(p)
	names, err := t.goFiles(d)
	if err != nil {
		return 0, 0, err
	}
	order := func(n string) int {
		if strings.HasSuffix(n, "_test.go") {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(order(a), order(b)) })
	for _, n := range names {
		if n == base {
			return inits, closures, nil
		}
		src, ok, err := t.read(path.Join(d, n))
		if err != nil {
			return 0, 0, err
		}
		if !ok || !buildMatches(d, n, src) {
			continue
		}
		pf, ok := parseFuncs(src, 0, 0)
		if !ok || pf.pkgName != pkgName {
			continue
		}
		inits += pf.inits
		closures += pf.pkgClosures
	}
	return inits, closures, nil
}

// buildMatches reports whether the default build context (this GOOS and
// GOARCH, no tags) compiles the file name in directory d with content src.
func buildMatches(d, name string, src []byte) bool {
	ctxt := build.Default
	ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
	ok, err := ctxt.MatchFile(d, name)
	return err == nil && ok
}
