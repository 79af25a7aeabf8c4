package covdata

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mbopt/mbopt/internal/regfile"
	"github.com/mbopt/mbopt/internal/srcfunc"
)

// Version is the version of the file format [Set.Write] writes for a set
// of a whole run, and [ReadFile] reads.
const Version = 1

// VersionTimed is the version of the file format [Set.Write] writes for a
// set of a timed loop ([Set.Timed]), which [ReadFile] reads too: a reader
// that knows only Version refuses it rather than take it for a whole run.
const VersionTimed = 2

// ErrNoData is wrapped by the error of [Load] for a directory without
// coverage counters of any instrumented function: nothing was written to
// it, or the program instrumented no statement (a test binary of a package
// of tests only).
var ErrNoData = errors.New("no coverage data")

// maxFileBytes bounds the size of a function set file [ReadFile] reads.
const maxFileBytes = 256 << 20

// A Func is one function that ran.
type Func struct {
	// Name is the function's name as package callgraph names profile
	// functions; see the package documentation.
	Name string `json:"name"`
	// File is the source file as coverage data names it: the package's
	// import path, "/", and the file's base name.
	File string `json:"file"`
	// Line is the line of the function's func keyword in File.
	Line int `json:"line"`
}

// A Set is the set of functions that ran in one coverage run.
type Set struct {
	// Packages are the import paths of the instrumented packages (those
	// the coverage data has meta-data for), sorted. Only functions of
	// these packages can be in Funcs.
	Packages []string `json:"packages"`
	// Funcs are the functions that ran, sorted by Name; names are unique.
	Funcs []Func `json:"functions"`
	// Timed reports that Funcs are the functions whose counters grew
	// between two runs at different iteration counts (see
	// [Counters.Grown]): a benchmark's timed loop, not all that its run
	// executed.
	Timed bool `json:"timed,omitempty"`

	once    sync.Once
	names   map[string]bool
	pkgs    map[string]bool
	parents map[string]bool // functions with a closure that ran
}

// Options configures [Load]. The zero value runs "go" in the current
// directory with the current environment and shares nothing between calls.
type Options struct {
	// Dir is a directory inside the module whose packages were
	// instrumented; go commands run there to find the packages' source
	// files. Empty means the current directory.
	Dir string
	// GoCmd is the go command. Empty means "go".
	GoCmd string
	// Env holds extra environment variables ("KEY=value") for the go
	// command, added to the current environment.
	Env []string
	// BuildFlags are passed to go list (e.g. "-tags=x"), so the files it
	// names are the files the instrumented build compiled.
	BuildFlags []string
	// Index, when not nil, keeps the parsed source of every package
	// between Load calls (safe for concurrent use); nil parses the source
	// for each call.
	Index *Index
}

// An Index caches the function spans of parsed packages, keyed by import
// path, for [Options.Index]. Its zero value is not usable; use [NewIndex].
// The source must not change while an Index is in use.
type Index struct {
	mu   sync.Mutex
	pkgs map[string]*pkgSource
}

// NewIndex returns an empty Index.
func NewIndex() *Index { return &Index{pkgs: map[string]*pkgSource{}} }

// A pkgSource is one package's functions, by coverage file name.
type pkgSource struct {
	files map[string][]span // key: import path + "/" + base name
	err   error
}

// Load reads the coverage data in dir (a GOCOVERDIR: the covmeta.* and
// covcounters.* files a -cover build writes) with [ReadCounters] and
// returns the functions that ran, naming every function and closure by
// parsing the instrumented packages' source (found with go list in
// opts.Dir); see the package documentation.
//
// Load fails when dir is not a directory, holds no coverage data (the
// error wraps [ErrNoData] and says how to get some), when the data does
// not decode, when go list fails, or when a source file named by the data
// cannot be found or parsed (it changed since the build). Every error
// names dir.
func Load(ctx context.Context, dir string, opts Options) (*Set, error) {
	c, err := ReadCounters(dir)
	if err != nil {
		return nil, err
	}
	return FromCounters(ctx, c, dir, opts)
}

// FromCounters returns the functions of c's units that ran (a count above
// zero), named as [Load] names them; name (the data's directory, for
// messages) starts every error. It fails, wrapping [ErrNoData], when c has
// no unit: the program instrumented no statement.
func FromCounters(ctx context.Context, c *Counters, name string, opts Options) (*Set, error) {
	if len(c.Units) == 0 {
		return nil, fmt.Errorf("%s: %w (was the program built with -cover, and did it exit normally? counters are written at exit)", name, ErrNoData)
	}
	s := &Set{}
	for _, u := range c.Units {
		if len(s.Packages) == 0 || s.Packages[len(s.Packages)-1] != u.Package {
			s.Packages = append(s.Packages, u.Package) // Units are sorted by package
		}
	}
	idx := opts.Index
	if idx == nil {
		idx = NewIndex()
	}
	if err := idx.load(ctx, s.Packages, opts); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ran := map[string]Func{}
	var src *pkgSource
	for _, u := range c.Units {
		if u.Count == 0 {
			continue
		}
		if src == nil || src != idx.get(u.Package) {
			if src = idx.get(u.Package); src.err != nil {
				return nil, fmt.Errorf("%s: %w", name, src.err)
			}
		}
		spans, ok := src.files[u.File]
		if !ok {
			return nil, fmt.Errorf("%s: coverage data names %s, which package %s does not have (did the source change since the build?)", name, u.File, u.Package)
		}
		i := owner(spans, pos{int(u.StartLine), int(u.StartCol)})
		if i < 0 {
			return nil, fmt.Errorf("%s: coverage block %s:%d.%d lies in no function (did the source change since the build?)", name, u.File, u.StartLine, u.StartCol)
		}
		sp := spans[i]
		if _, ok := ran[sp.name]; !ok {
			ran[sp.name] = Func{Name: sp.name, File: u.File, Line: sp.line}
		}
	}
	s.Funcs = make([]Func, 0, len(ran))
	for _, f := range ran {
		s.Funcs = append(s.Funcs, f)
	}
	slices.SortFunc(s.Funcs, func(a, b Func) int { return strings.Compare(a.Name, b.Name) })
	return s, nil
}

// get returns the parsed package pkg, which load must have loaded.
func (x *Index) get(pkg string) *pkgSource {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.pkgs[pkg]
}

// load parses the packages of pkgs that x does not hold yet, with one go
// list for all of them.
func (x *Index) load(ctx context.Context, pkgs []string, opts Options) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var missing []string
	for _, p := range pkgs {
		if _, ok := x.pkgs[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	goCmd := opts.GoCmd
	if goCmd == "" {
		goCmd = "go"
	}
	args := append([]string{"list", "-e", "-json=ImportPath,Dir,GoFiles,CgoFiles,Error"}, opts.BuildFlags...)
	args = append(args, missing...)
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = opts.Dir
	cmd.Env = append(os.Environ(), opts.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("go list (finding the source of the instrumented packages): %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	dec := json.NewDecoder(&stdout)
	for {
		var lp struct {
			ImportPath, Dir   string
			GoFiles, CgoFiles []string
			Error             *struct{ Err string }
		}
		if err := dec.Decode(&lp); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return fmt.Errorf("go list output: %w", err)
		}
		x.pkgs[lp.ImportPath] = parsePackage(lp.ImportPath, lp.Dir, append(lp.GoFiles, lp.CgoFiles...), lp.Error)
	}
	for _, p := range missing {
		if _, ok := x.pkgs[p]; !ok {
			x.pkgs[p] = &pkgSource{err: fmt.Errorf("go list does not know package %s; run in the module that was built with -cover (Options.Dir)", p)}
		}
	}
	return nil
}

// parsePackage parses the files of package pkg in dir, in order.
func parsePackage(pkg, dir string, files []string, listErr *struct{ Err string }) *pkgSource {
	if dir == "" || len(files) == 0 {
		msg := "no Go files"
		if listErr != nil {
			msg = listErr.Err
		}
		return &pkgSource{err: fmt.Errorf("package %s: %s; run in the module that was built with -cover (Options.Dir)", pkg, msg)}
	}
	src := &pkgSource{files: map[string][]span{}}
	fset := token.NewFileSet()
	inits, globals := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return &pkgSource{err: fmt.Errorf("package %s: %w", pkg, err)}
		}
		var spans []span
		spans, inits, globals, err = fileFuncs(fset, pkg, filepath.Join(dir, f), data, inits, globals)
		if err != nil {
			return &pkgSource{err: fmt.Errorf("package %s: %w", pkg, err)}
		}
		src.files[pkg+"/"+f] = spans
	}
	return src
}

// index builds the lookup maps once.
func (s *Set) index() {
	s.once.Do(func() {
		s.names = make(map[string]bool, len(s.Funcs))
		s.parents = map[string]bool{}
		for _, f := range s.Funcs {
			s.names[f.Name] = true
			pkg, rest, ok := split(f.Name)
			if !ok {
				continue
			}
			if i := slices.IndexFunc(srcfunc.Elements(rest), closureElem.MatchString); i > 0 {
				s.parents[pkg+"."+strings.Join(srcfunc.Elements(rest)[:i], ".")] = true
			}
		}
		s.pkgs = make(map[string]bool, len(s.Packages))
		for _, p := range s.Packages {
			s.pkgs[p] = true
		}
	})
}

// Instrumented reports whether package pkg (an import path) is one of
// s.Packages.
func (s *Set) Instrumented(pkg string) bool {
	s.index()
	return s.pkgs[pkg]
}

// wrapper matches the compiler's wrappers of defer and go statements.
var wrapper = regexp.MustCompile(`\.(deferwrap|gowrap)[0-9]+$`)

// rangeBody matches the suffix of a range-over-func loop body.
var rangeBody = regexp.MustCompile(`-range[0-9]+`)

// closureElem matches a closure's element of a name, "func3".
var closureElem = regexp.MustCompile(`^func[0-9]+$`)

// Contains reports whether the function a CPU profile names name (in
// callgraph's normalised form) ran, by the rules of the package
// documentation: name is in Funcs; or it is a compiler wrapper (a
// deferwrap or gowrap, a range-over-func loop body) of a function that
// ran; or it is a closure copied into another function by inlining
// ("pkg.Caller.F.func3", or "pkg.Caller.func1.F.3" when copied into a
// closure of Caller) and a closure of F ran, or a wrapper copied so
// ("pkg.Caller.F-range1") and F ran. The copy's number counts the closures
// of Caller, not of F, so which of F's closures it copies is not known: any
// one that ran will do. A copy's name does not say F's package when F was
// inlined from another package, so F is looked up in the copy's package
// first, then in every instrumented package. Names of packages that are not
// instrumented are never contained.
func (s *Set) Contains(name string) bool {
	s.index()
	if s.names[name] {
		return true
	}
	pkg, rest, ok := split(name)
	if !ok || !s.pkgs[pkg] {
		return false
	}
	if w := rangeBody.ReplaceAllString(wrapper.ReplaceAllString(rest, ""), ""); w != rest {
		if s.Contains(pkg + "." + w) {
			return true
		}
		// A wrapper copied by inlining: "Caller.F-range1" is F's.
		return s.copied(pkg, srcfunc.Elements(w), len(srcfunc.Elements(w)), s.names)
	}
	// A copied closure ends in closure elements: "func3", or a bare
	// number when it was copied into a closure ("Caller.func1.F.3").
	elems := srcfunc.Elements(rest)
	end := len(elems)
	for end > 0 && (closureElem.MatchString(elems[end-1]) || isNumber(elems[end-1])) {
		end--
	}
	return end < len(elems) && s.copied(pkg, elems, end, s.parents)
}

// isNumber reports whether e is a non-empty string of ASCII digits.
func isNumber(e string) bool {
	for _, c := range e {
		if c < '0' || c > '9' {
			return false
		}
	}
	return e != ""
}

// copied reports whether a function named by elems[:end] (the elements of
// a name after package pkg) with some leading elements dropped, which
// inlining prepends as the callers' names, is in set: first in package
// pkg, then, since a function inlined across packages keeps no package
// qualifier in the copy's name ("optimize.(*engine).take.(*Result).ImpactOf.func1"
// copies coverage.(*Result).ImpactOf's closure), in any instrumented package.
func (s *Set) copied(pkg string, elems []string, end int, set map[string]bool) bool {
	for _, p := range append([]string{pkg}, s.Packages...) {
		for k := 1; k < end; k++ {
			if set[p+"."+strings.Join(elems[k:end], ".")] {
				return true
			}
		}
	}
	return false
}

// split splits a function name into its package path and the rest, as
// callgraph.PackageOf does: the package ends at the first '.' after the
// last '/'.
func split(name string) (pkg, rest string, ok bool) {
	slash := strings.LastIndexByte(name, '/')
	dot := strings.IndexByte(name[slash+1:], '.')
	if dot < 0 {
		return "", "", false
	}
	i := slash + 1 + dot
	return name[:i], name[i+1:], true
}

// Write writes s as JSON (see the package documentation).
func (s *Set) Write(w io.Writer) error {
	type file struct {
		Version  int      `json:"version"`
		Timed    bool     `json:"timed,omitempty"`
		Packages []string `json:"packages"`
		Funcs    []Func   `json:"functions"`
	}
	f := file{Version: Version, Timed: s.Timed, Packages: s.Packages, Funcs: s.Funcs}
	if s.Timed {
		f.Version = VersionTimed
	}
	if f.Packages == nil {
		f.Packages = []string{}
	}
	if f.Funcs == nil {
		f.Funcs = []Func{}
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// ReadFile reads a Set written by [Set.Write] from the regular file at
// name. It fails, with an error naming the file, when the file is missing,
// not a regular file, not a function set, of another version (or of the
// version of timed sets without being timed, or the other way round), or
// lists a function twice or out of order.
func ReadFile(name string) (*Set, error) {
	data, err := regfile.ReadFile(name, maxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var f struct {
		Version  int      `json:"version"`
		Timed    bool     `json:"timed"`
		Packages []string `json:"packages"`
		Funcs    []Func   `json:"functions"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: parsing function set: %w (the file is truncated or not a function set; collect it again)", name, err)
	}
	if f.Version != Version && f.Version != VersionTimed {
		return nil, fmt.Errorf("%s: function set version %d, want %d or %d (written by another mbopt version?)", name, f.Version, Version, VersionTimed)
	}
	if f.Timed != (f.Version == VersionTimed) {
		return nil, fmt.Errorf("%s: function set version %d with timed %v: version %d is that of timed sets, and of them only (the file was edited; collect it again)", name, f.Version, f.Timed, VersionTimed)
	}
	for i := 1; i < len(f.Funcs); i++ {
		if f.Funcs[i-1].Name >= f.Funcs[i].Name {
			return nil, fmt.Errorf("%s: functions not sorted by name or listed twice at %q (the file was edited; collect it again)", name, f.Funcs[i].Name)
		}
	}
	return &Set{Packages: f.Packages, Funcs: f.Funcs, Timed: f.Timed}, nil
}
