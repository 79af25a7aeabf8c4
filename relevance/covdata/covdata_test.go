package covdata_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/relevance/covdata"
)

const mod = "testdata/mod"

// goRun runs the go command in dir and fails the test on error.
func goRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go %s: %s", strings.Join(args, " "), out)
	return string(out)
}

// buildTest builds the test binary of package pkg of testdata/mod with
// flags into bin (package internal/testbin) and fails the test on error.
func buildTest(t *testing.T, pkg, bin string, flags ...string) {
	t.Helper()
	out, err := testbin.Build{Dir: mod, Flags: flags, Package: pkg, Out: bin}.Run(t.Context())
	require.NoError(t, err, "go test -c %s: %s", pkg, out)
}

// coverRun builds testdata/mod's test binary with -cover, runs its
// benchmark once into a GOCOVERDIR and loads the set.
func coverRun(t *testing.T) *covdata.Set {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "store.test")
	buildTest(t, "./store", bin, "-cover", "-coverpkg=./...")
	covdir := filepath.Join(tmp, "cov")
	require.NoError(t, os.Mkdir(covdir, 0o755))
	cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", ".", "-test.benchtime", "1x", "-test.gocoverdir", covdir)
	cmd.Dir = filepath.Join(mod, "store")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	s, err := covdata.Load(t.Context(), covdir, covdata.Options{Dir: mod, Index: covdata.NewIndex()})
	require.NoError(t, err)
	return s
}

func names(s *covdata.Set) []string {
	var out []string
	for _, f := range s.Funcs {
		out = append(out, f.Name)
	}
	return out
}

// TestLoadNamesAsTheCompiler checks the exact set of functions a run of
// testdata/mod's benchmark executes, and that each is named as the
// compiler names it: the symbols of the test binary built without inlining
// (so every closure is a function of its own), normalised by callgraph.
func TestLoadNamesAsTheCompiler(t *testing.T) {
	if testing.Short() {
		t.Skip("builds testdata/mod")
	}
	s := coverRun(t)
	p := "example.com/m/store."
	want := []string{
		p + "(*DB).Get", p + "(*DB).Put",
		p + "(*Tree[...]).Insert", p + "(*Tree[...]).Insert.func1",
		p + "Map[...]", p + "Map[...].func1",
		p + "New",
		p + "Outer", p + "Outer.func1", p + "Outer.func1.1", p + "Outer.func2",
		p + "Pair.Sum",
		p + "Ranged", p + "Seq", p + "Seq.func1",
		p + "UseSmall",
		p + "init.0", p + "init.1", p + "init.func1",
		p + "small", p + "small.func1",
	}
	slices.Sort(want)
	assert.Equal(t, want, names(s), "functions that ran")
	assert.Equal(t, []string{"example.com/m/store"}, s.Packages)
	for _, f := range s.Funcs {
		assert.True(t, strings.HasPrefix(f.File, "example.com/m/store/store.go"), "%s: file %s", f.Name, f.File)
		assert.Positive(t, f.Line, f.Name)
	}
	for _, never := range []string{"(*Tree[...]).Len", "Outer.func3", "Unused", "init.func2"} {
		assert.False(t, s.Contains(p+never), "%s never runs", never)
	}

	bin := filepath.Join(t.TempDir(), "noinline.test")
	buildTest(t, "./store", bin, "-gcflags=all=-l")
	syms := map[string]bool{}
	for _, l := range strings.Split(goRun(t, mod, "tool", "nm", bin), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[1] == "T" {
			syms[callgraph.NormalizeName(f[2])] = true
		}
	}
	for _, n := range want {
		assert.True(t, syms[n], "the compiler names no function %s", n)
	}
}

// TestProfileNamesContained profiles the same benchmark (an ordinary
// build, inlining on) and checks that every function of the package the
// profile samples, outside the _test.go files coverage does not
// instrument, is contained in the coverage run's set, closures, generic
// functions, inlined copies and compiler wrappers included.
func TestProfileNamesContained(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and profiles testdata/mod")
	}
	s := coverRun(t)
	tmp := t.TempDir()
	prof := filepath.Join(tmp, "cpu.pprof")
	// -o keeps the test binary go test leaves when profiling out of testdata.
	goRun(t, filepath.Join(mod, "store"), "test", "-run", "^$", "-bench", ".", "-benchtime", "400ms", "-cpuprofile", prof, "-o", filepath.Join(tmp, "store.test"), ".")
	p, err := callgraph.ReadProfile(prof)
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, fn := range p.Function {
		name := callgraph.NormalizeName(fn.Name)
		if callgraph.PackageOf(name) != "example.com/m/store" || strings.HasSuffix(fn.Filename, "_test.go") {
			continue
		}
		seen[name] = true
		assert.True(t, s.Contains(name), "profile function %s is not in the coverage set", name)
	}
	// The hot closure and generic functions are always sampled.
	for _, n := range []string{"(*Tree[...]).Insert.func1", "(*Tree[...]).Insert", "Map[...]"} {
		assert.True(t, seen["example.com/m/store."+n], "%s not sampled; profile functions: %v", n, seen)
	}
}

// TestContainsRules checks the mapping of profile names that the source
// cannot predict.
func TestContainsRules(t *testing.T) {
	p := "example.com/m/store."
	s := &covdata.Set{Packages: []string{"example.com/m/other", "example.com/m/store"}, Funcs: []covdata.Func{
		{Name: p + "Outer"}, {Name: p + "Outer.func1"}, {Name: p + "Pair.Sum"}, {Name: p + "Ranged"}, {Name: p + "small.func1"},
	}}
	for _, tc := range []struct {
		name string
		want bool
	}{
		{p + "Outer", true},
		{p + "Outer.func1", true},
		{p + "Outer.func2", false},                            // a closure that did not run
		{p + "Outer.deferwrap1", true},                        // defer wrapper of a function that ran
		{p + "Outer.func1.gowrap2", true},                     // go wrapper inside a closure that ran
		{p + "Ranged-range1", true},                           // range-over-func body
		{p + "Ranged-range1.func1", false},                    // no such closure ran
		{p + "UseSmall.small.func1", true},                    // small's closure inlined into UseSmall
		{p + "A.B.small.func1", true},                         // ... through two levels
		{p + "UseSmall.small.func2", true},                    // numbered among UseSmall's closures
		{p + "UseSmall.Ranged.func1", false},                  // Ranged has no closure that ran
		{p + "Caller.func1.small.3", true},                    // small's closure copied into a closure of Caller
		{p + "Caller.func2.Outer.small.1", true},              // ... through Outer
		{p + "Caller.func1.Ranged.3", false},                  // Ranged has no closure that ran
		{p + "init.7", false},                                 // not a copy: nothing to drop
		{p + "Caller.Ranged-range2", true},                    // a range body copied into Caller by inlining
		{p + "Caller.Outer.Ranged-range1", true},              // ... through two levels
		{p + "Caller.Unused-range1", false},                   // Unused did not run
		{"example.com/m/other.Caller.(*T).small.func4", true}, // small's closure inlined across packages
		{"example.com/m/other.Caller.Ranged-range1", true},    // a range body inlined across packages
		{"example.com/m/other.Caller.Pair.Sum", false},        // only copies of closures and wrappers are looked up
		{p + "T.Sum", false},                                  // not a closure: no prefix is dropped
		{"example.com/other.Outer", false},                    // not instrumented
		{"runtime.mallocgc", false},                           // not instrumented
		{"[vdso]", false},                                     // no package
	} {
		assert.Equal(t, tc.want, s.Contains(tc.name), tc.name)
	}
}

func TestWriteRead(t *testing.T) {
	s := &covdata.Set{Packages: []string{"a"}, Funcs: []covdata.Func{{Name: "a.F", File: "a/a.go", Line: 3}, {Name: "a.G", File: "a/a.go", Line: 9}}}
	file := filepath.Join(t.TempDir(), "set.json")
	f, err := os.Create(file)
	require.NoError(t, err)
	require.NoError(t, s.Write(f))
	require.NoError(t, f.Close())
	got, err := covdata.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, s.Packages, got.Packages)
	assert.Equal(t, s.Funcs, got.Funcs)
	assert.True(t, got.Contains("a.G"))

	for _, tc := range []struct{ data, want string }{
		{`{"version": 1, "packages": [], "functions": [{"name": "b"}, {"name": "a"}]}`, "not sorted"},
		{`{"version": 1, "packages": [], "functions": [{"name": "a"}, {"name": "a"}]}`, "listed twice"},
		{`{"version": 9}`, "version 9, want 1 or 2"},
		{`{"version": 2, "packages": [], "functions": []}`, "function set version 2 with timed false"},
		{`{"version": 1, "timed": true, "packages": [], "functions": []}`, "function set version 1 with timed true"},
		{`{"vers`, "truncated or not a function set"},
	} {
		require.NoError(t, os.WriteFile(file, []byte(tc.data), 0o644))
		_, err := covdata.ReadFile(file)
		require.Error(t, err)
		assert.Contains(t, err.Error(), file)
		assert.Contains(t, err.Error(), tc.want)
	}
	s.Timed = true
	f, err = os.Create(file)
	require.NoError(t, err)
	require.NoError(t, s.Write(f))
	require.NoError(t, f.Close())
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"version": 2,`, "a set of a timed loop is version 2")
	got, err = covdata.ReadFile(file)
	require.NoError(t, err)
	assert.True(t, got.Timed)

	_, err = covdata.ReadFile(filepath.Join(t.TempDir(), "missing.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestLoadErrors(t *testing.T) {
	empty := t.TempDir()
	_, err := covdata.Load(t.Context(), empty, covdata.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), empty+": no coverage data")
	assert.ErrorIs(t, err, covdata.ErrNoData)
	_, err = covdata.Load(t.Context(), filepath.Join(empty, "nope"), covdata.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a coverage data directory")
}
