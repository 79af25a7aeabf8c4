package changes_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/relevance/changes"
)

// ExampleDiff maps a one-line edit inside a closure to the closure, and
// finds it among a profile's function names.
func ExampleDiff() {
	dir, err := os.MkdirTemp("", "changes-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			log.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("go.mod", "module example.com/sum\n")
	write("sum.go", "package sum\n\nfunc Sum(xs []int) (t int) {\n\tfor _, x := range xs {\n\t\tfunc() { t += x }()\n\t}\n\treturn t\n}\n")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	git("checkout", "-q", "-b", "feature")
	write("sum.go", "package sum\n\nfunc Sum(xs []int) (t int) {\n\tfor _, x := range xs {\n\t\tfunc() { t += 2 * x }()\n\t}\n\treturn t\n}\n")

	// The work tree against the merge-base with main.
	res, err := changes.Diff(context.Background(), changes.Options{Dir: dir})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("base: merge-base with", res.Base.Branch)
	for _, f := range res.Functions {
		fmt.Printf("%s %s (%s:%d)\n", f.Change, f.Name, f.File, f.Line)
	}
	app := &callgraph.Graph{Nodes: []callgraph.Node{
		{Name: "example.com/sum.Sum"}, {Name: "example.com/sum.Sum.func1"}, {Name: "main.main.Sum.func1"},
	}}
	for _, id := range res.Nodes(app) {
		fmt.Println("node:", app.Nodes[id].Name)
	}
	// Output:
	// base: merge-base with main
	// modified example.com/sum.Sum.func1 (sum.go:5)
	// node: example.com/sum.Sum.func1
}

// Summary says what a change touched and how many of a suite's benchmarks
// it affects, for a log; CheckSince refuses to keep only the affected
// benchmarks without knowing since when.
func ExampleResult_Summary() {
	r := &changes.Result{
		Base:      gitrev.Base{Rev: "v1.2.0", Commit: "0123456789abcdef0123456789abcdef01234567"},
		Functions: []changes.Function{{Name: "example.com/m/query.Sum"}},
		Outside:   []changes.Lines{{File: "query/sum.go", From: 12, To: 12}},
	}
	for _, line := range r.Summary(1, 4) {
		fmt.Println(line)
	}
	fmt.Println(changes.CheckSince("", true))
	// Output:
	// changes since v1.2.0 (0123456789ab): 1 function changed; 1 of the suite's 4 benchmarks affected
	// note: changed code outside any function (query/sum.go:12) is not traced to benchmarks: a changed constant, variable or type may affect benchmarks that are not tagged
	// Config.OnlyAffected needs Config.ChangedSince REV (or Config.ChangedSince merge-base) to know what changed
}
