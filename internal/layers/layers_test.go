package layers

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/mbopt/mbopt/"

// layer is each package's layer (see the package documentation). A new
// package must be added here, which makes its place in the flow a decision.
var layer = map[string]int{
	"bitset":              0,
	"benchname":           0,
	"benchstats":          0,
	"internal/srcfunc":    0,
	"internal/atomicfile": 0,
	"internal/interrupt":  0,
	"internal/textutil":   0,
	"internal/regfile":    0,
	"internal/dirlock":    0,
	"internal/par":        0,
	"internal/proc":       0,
	"internal/testbin":    1,
	"internal/lazy":       0,
	"internal/layers":     0,
	"internal/golden":     0,
	"internal/doccheck":   0,
	"internal/gittest":    0,
	"manifest":            1,
	"shard":               1,
	"callgraph":           1,
	"internal/gitrev":     1,
	"internal/statedir":   1,
	"detect":              1,

	"covdata":             1,
	"collect":             2,
	"reference":           2,
	"coverage":            2,
	"compare":             2,
	"staticcg":            2,
	"internal/proftest":   3,
	"internal/synth":      3,
	"internal/cmpfixture": 3,

	"history":   3,
	"optimize":  3,
	"recommend": 3,
	"changes":   3,
	"suite":     4,
	"analysis":  5,
	"report":    6,
	"pipeline":  6,
	"cmd/mbopt": 7,
}

// notForTheCommand are internal packages cmd/mbopt must not import: test
// fixtures and algorithm internals.
var notForTheCommand = []string{"internal/lazy", "internal/proftest", "internal/synth", "internal/golden", "internal/gittest", "internal/cmpfixture"}

// imports returns each module package's direct non-test imports of other
// module packages, both without the module prefix.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "github.com/mbopt/mbopt/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		m[pkg] = nil
		for _, imp := range f[1:] {
			if rest, ok := strings.CutPrefix(imp, module); ok {
				m[pkg] = append(m[pkg], rest)
			}
		}
	}
	return m
}

func TestImportsPointDown(t *testing.T) {
	for pkg, imps := range imports(t) {
		l, ok := layer[pkg]
		if !ok {
			t.Errorf("package %s has no layer: add it to the table in layers_test.go and doc.go", pkg)
			continue
		}
		for _, imp := range imps {
			if li, ok := layer[imp]; ok && li >= l {
				t.Errorf("%s (layer %d) imports %s (layer %d): a package may import only lower layers", pkg, l, imp, li)
			}
		}
	}
}

func TestCommandImportsNoAlgorithmInternals(t *testing.T) {
	for _, imp := range imports(t)["cmd/mbopt"] {
		for _, bad := range notForTheCommand {
			if imp == bad {
				t.Errorf("cmd/mbopt imports %s; the command only maps flags to the library", imp)
			}
		}
	}
}

// TestPipelineNeedsNoRunner checks, over all transitive dependencies, that
// the packages that read collected profiles do not pull in the benchmark
// runner (package collect): the manifest is all they need of it.
func TestPipelineNeedsNoRunner(t *testing.T) {
	for _, pkg := range []string{"analysis", "report", "suite", "coverage", "optimize", "recommend", "callgraph", "manifest"} {
		out, err := exec.Command("go", "list", "-deps", module+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == module+"collect" || dep == module+"reference" {
				t.Errorf("%s depends on %s", pkg, strings.TrimPrefix(dep, module))
			}
		}
	}
}
