package changes_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/relevance/changes"
	"github.com/mbopt/mbopt/testkit/gittest"
)

// fixture is the base revision of the mapping tests: module example.com/m
// with a package a holding one function of each kind the names cover.
var fixture = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"a/a.go": `package a

import "strings"

// Limit is a package-level variable.
var Limit = 10

var hook = func() int { return 1 }

type T struct{ n int }

// Inc increments.
func (t *T) Inc() { t.n++ }

func (t T) Get() int { return t.n }

func Upper(s string) string {
	return strings.ToUpper(s)
}

func Each(xs []int, f func(int)) {
	for _, x := range xs {
		f(x)
	}
}

func Sum(xs []int) int {
	total := 0
	Each(xs, func(x int) {
		total += x
	})
	return total
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type Tree[K comparable] struct{ keys []K }

func (t *Tree[K]) Insert(k K) { t.keys = append(t.keys, k) }

func Gone() int { return 42 }
`,
	"a/b.go": `package a

var table = map[string]func() int{
	"one": func() int { return 1 },
}
`,
	"a/a_test.go": `package a_test

import (
	"testing"

	"example.com/m/a"
)

func BenchmarkUpper(b *testing.B) {
	for range b.N {
		a.Upper("x")
	}
}
`,
	"cmd/tool/main.go": `package main

func main() { run() }

func run() {}
`,
}

func TestDiffFunctions(t *testing.T) {
	type fn struct {
		name   string
		change changes.Change
	}
	tests := []struct {
		name    string
		edit    func(r *gittest.Repo)
		want    []fn
		outside int // changed ranges outside every function
		file    changes.Status
	}{
		{
			name: "edited body",
			edit: func(r *gittest.Repo) { r.Replace("a/a.go", "strings.ToUpper(s)", "strings.ToUpper(s + \"!\")") },
			want: []fn{{"example.com/m/a.Upper", changes.FuncModified}},
		},
		{
			name: "added func",
			edit: func(r *gittest.Repo) { r.Write("a/a.go", r.Read("a/a.go")+"\nfunc Added() {}\n") },
			want: []fn{{"example.com/m/a.Added", changes.FuncAdded}},
		},
		{
			name: "deleted func",
			edit: func(r *gittest.Repo) { r.Replace("a/a.go", "func Gone() int { return 42 }\n", "") },
			want: []fn{{"example.com/m/a.Gone", changes.FuncDeleted}},
		},
		{
			name: "method with pointer receiver",
			edit: func(r *gittest.Repo) { r.Replace("a/a.go", "t.n++", "t.n += 2") },
			want: []fn{{"example.com/m/a.(*T).Inc", changes.FuncModified}},
		},
		{
			name: "method with value receiver",
			edit: func(r *gittest.Repo) { r.Replace("a/a.go", "return t.n }", "return t.n + 1 }") },
			want: []fn{{"example.com/m/a.T.Get", changes.FuncModified}},
		},
		{
			name: "closure only",
			edit: func(r *gittest.Repo) { r.Replace("a/a.go", "total += x", "total += 2 * x") },
			want: []fn{{"example.com/m/a.Sum.func1", changes.FuncModified}},
		},
		{
			name: "generic func",
			edit: func(r *gittest.Repo) { r.Replace("a/a.go", "make([]U, 0, len(xs))", "make([]U, 0, 2*len(xs))") },
			want: []fn{{"example.com/m/a.Map[...]", changes.FuncModified}},
		},
		{
			name: "method of a generic type",
			edit: func(r *gittest.Repo) {
				r.Replace("a/a.go", "t.keys = append(t.keys, k)", "t.keys = append(t.keys, k, k)")
			},
			want: []fn{{"example.com/m/a.(*Tree[...]).Insert", changes.FuncModified}},
		},
		{
			name: "comment-only change",
			edit: func(r *gittest.Repo) {
				r.Replace("a/a.go", "// Inc increments.", "// Inc increments n by one.")
				r.Replace("a/a.go", "\tfor _, x := range xs {\n\t\tf(x)", "\tfor _, x := range xs { // each element\n\t\tf(x)")
			},
			want: nil,
		},
		{
			name:    "package-level var",
			edit:    func(r *gittest.Repo) { r.Replace("a/a.go", "var Limit = 10", "var Limit = 20") },
			want:    nil,
			outside: 2, // the line removed from the base and the one added

		},
		{
			name: "closure in a package-level var, numbered across files",
			edit: func(r *gittest.Repo) { r.Replace("a/b.go", "return 1 },", "return 2 },") },
			want: []fn{{"example.com/m/a.init.func2", changes.FuncModified}},
		},
		{
			name: "renamed file in the same package",
			edit: func(r *gittest.Repo) {
				r.Git("mv", "a/a.go", "a/c.go")
				r.Replace("a/c.go", "return 42", "return 43")
			},
			want: []fn{{"example.com/m/a.Gone", changes.FuncModified}},
			file: changes.Renamed,
		},
		{
			name: "file moved to another package",
			edit: func(r *gittest.Repo) {
				r.Write("b/b.go", strings.Replace(r.Read("a/b.go"), "package a", "package b", 1))
				r.Git("rm", "-q", "a/b.go")
			},
			want: []fn{{"example.com/m/a.init.func2", changes.FuncDeleted}, {"example.com/m/b.init.func1", changes.FuncAdded}},
			file: changes.Renamed,
		},
		{
			name: "benchmark in an external test package",
			edit: func(r *gittest.Repo) { r.Replace("a/a_test.go", `a.Upper("x")`, `a.Upper("xy")`) },
			want: []fn{{"example.com/m/a_test.BenchmarkUpper", changes.FuncModified}},
		},
		{
			name: "command",
			edit: func(r *gittest.Repo) { r.Replace("cmd/tool/main.go", "func run() {}", "func run() { println() }") },
			want: []fn{{"main.run", changes.FuncModified}},
		},
		{
			name: "new file",
			edit: func(r *gittest.Repo) {
				r.Write("a/new.go", "package a\n\nfunc New() func() {\n\treturn func() {}\n}\n")
			},
			want: []fn{{"example.com/m/a.New", changes.FuncAdded}, {"example.com/m/a.New.func1", changes.FuncAdded}},
		},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := gittest.New(t, "main")
			for p, c := range fixture {
				r.Write(p, c)
			}
			base := r.Commit("base")
			tt.edit(r)
			// The work tree first, then the same change committed.
			for _, head := range []string{"", "HEAD"} {
				if head != "" {
					r.Commit("change")
				}
				res, err := changes.Diff(ctx, changes.Options{Dir: r.Dir, Base: base, Head: head})
				if err != nil {
					t.Fatalf("Diff(head %q): %v", head, err)
				}
				var got []fn
				for _, f := range res.Functions {
					got = append(got, fn{f.Name, f.Change})
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("Diff(head %q) functions = %v, want %v", head, got, tt.want)
				}
				if len(res.Outside) != tt.outside {
					t.Errorf("Diff(head %q) outside = %+v, want %d ranges", head, res.Outside, tt.outside)
				}
				if tt.file != "" && (len(res.Files) == 0 || res.Files[0].Status != tt.file) && head != "" {
					t.Errorf("Diff(head %q) files = %+v, want status %s", head, res.Files, tt.file)
				}
			}
		})
	}
}

func TestDiffLocations(t *testing.T) {
	r := gittest.New(t, "main")
	for p, c := range fixture {
		r.Write(p, c)
	}
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "feature")
	r.Replace("a/a.go", "strings.ToUpper(s)", "strings.ToLower(s)")
	r.Replace("a/a.go", "func Gone() int { return 42 }\n", "")
	r.Replace("a/a.go", "var Limit = 10", "var Limit = 11")
	res, err := changes.Diff(context.Background(), changes.Options{Dir: r.Dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.Base.Branch != "main" {
		t.Errorf("Base = %+v, want the merge-base with main", res.Base)
	}
	want := []changes.Function{
		{Name: "example.com/m/a.Gone", Change: changes.FuncDeleted, File: "a/a.go", Line: 47},
		{Name: "example.com/m/a.Upper", Change: changes.FuncModified, File: "a/a.go", Line: 17},
	}
	if !slices.Equal(res.Functions, want) {
		t.Errorf("Functions = %+v, want %+v", res.Functions, want)
	}
	wantOut := []changes.Lines{{File: "a/a.go", Base: true, From: 6, To: 6}, {File: "a/a.go", From: 6, To: 6}}
	if !slices.Equal(res.Outside, wantOut) {
		t.Errorf("Outside = %+v, want %+v", res.Outside, wantOut)
	}
}

func TestDiffSkipsIgnoredDirectories(t *testing.T) {
	r := gittest.New(t, "main")
	for p, c := range fixture {
		r.Write(p, c)
	}
	base := r.Commit("base")
	r.Write("a/testdata/x.go", "package x\n\nfunc X() {}\n")
	r.Write("../outside.go", "package outside\n") // not in the repository
	res, err := changes.Diff(context.Background(), changes.Options{Dir: r.Dir, Base: base})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Functions) != 0 || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "testdata") {
		t.Errorf("Diff = functions %+v, skipped %+v; want none and a/testdata/x.go skipped", res.Functions, res.Skipped)
	}
}
