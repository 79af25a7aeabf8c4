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
	"internal/doccheck":   0,
	"manifest":            1,
	"shard":               1,
	"callgraph":           1,
	"internal/gitrev":     1,
	"internal/statedir":   1,
	"detect":              1,

	"covdata":   1,
	"collect":   2,
	"reference": 2,
	"coverage":  2,
	"compare":   2,
	"staticcg":  2,

	"history":   3,
	"optimize":  3,
	"recommend": 3,
	"changes":   3,
	"suite":     4,
	"analysis":  5,
	"report":    6,
	"pipeline":  6,
	"cmd/mbopt": 9,

	"report/site": 7,

	// Test support: it may import any library package, and no
	// production package imports it (TestProductionImportsNoTestSupport).
	"internal/testing/golden":     7,
	"internal/testing/gittest":    7,
	"internal/testing/cmpfixture": 7,
	"internal/testing/proftest":   7,
	"internal/testing/synth":      7,
	"internal/testing/perf":       7,
	"internal/testing/badcorpus":  8,
	"internal/testing/nosamples":  8,
	"internal/testing/corpus":     8,
	"internal/testing/floor":      8,
}

// testSupport is the directory of test support: fixtures, golden files,
// synthetic suites and the programs that write test corpora. Only tests
// import its packages.
const testSupport = "internal/testing/"

// notForTheCommand are internal packages cmd/mbopt must not import:
// algorithm internals. (Test support is for no production package; see
// TestProductionImportsNoTestSupport.)
var notForTheCommand = []string{"internal/lazy"}

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

// TestProductionImportsNoTestSupport checks that no production package
// imports test support: only _test.go files may, and test support itself.
func TestProductionImportsNoTestSupport(t *testing.T) {
	for pkg, imps := range imports(t) {
		if strings.HasPrefix(pkg, testSupport) {
			continue
		}
		for _, imp := range imps {
			if strings.HasPrefix(imp, testSupport) {
				t.Errorf("%s imports %s outside its tests: test support (%s...) is for _test.go files only", pkg, imp, testSupport)
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
