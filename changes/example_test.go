package changes_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/changes"
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
