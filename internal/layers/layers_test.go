package layers

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mbopt/mbopt/"

// The layers, lowest first (see the package documentation). A package's
// number is its layer plus a step that orders the packages of one layer
// that import one another.
const (
	helpers     = 0  // internal helpers that know nothing of benchmarks
	nouns       = 10 // the nouns the stages and the two halves share
	inputs      = 20 // what runs benchmarks and workloads, and reads their output
	relevance   = 30 // the relevance half: which benchmarks matter
	comparison  = 40 // the comparison half: revisions → verdicts → trends
	documents   = 50 // renderings of both halves' results
	pipelines   = 60 // whole pipelines on a module
	testSupport = 70 // test support (internal/testing); only tests import it
	command     = 80 // cmd/mbopt
)

// layer is each package's layer and step. A new package must be added
// here (and to doc.go), which makes its place in the flow a decision.
var layer = map[string]int{
	"bitset":               helpers,
	"internal/atomicfile":  helpers,
	"internal/dirlock":     helpers,
	"internal/enum":        helpers,
	"internal/gomod":       helpers,
	"internal/doccheck":    helpers,
	"internal/interrupt":   helpers,
	"internal/layers":      helpers,
	"internal/lazy":        helpers,
	"internal/par":         helpers,
	"internal/proc":        helpers,
	"internal/progress":    helpers,
	"internal/regfile":     helpers,
	"internal/srcfunc":     helpers,
	"internal/textutil":    helpers,
	"internal/gitrev":      helpers + 1,
	"internal/selfprofile": helpers + 1,
	"internal/statedir":    helpers + 1,
	"internal/testbin":     helpers + 1,
	"internal/tmpdir":      helpers + 1,

	"benchname": nouns,
	"input":     nouns,
	"relevance": nouns,
	"shard":     nouns,
	"callgraph": nouns + 1,
	"manifest":  nouns + 1,

	"covdata":   inputs,
	"measure":   inputs,
	"opprof":    inputs,
	"reference": inputs + 1,
	"collect":   inputs + 1,

	"coverage":  relevance,
	"staticcg":  relevance,
	"suite":     relevance,
	"changes":   relevance + 1,
	"optimize":  relevance + 1,
	"recommend": relevance + 1,
	"analysis":  relevance + 2,

	"benchstats": comparison,
	"culprit":    comparison + 1,
	"compare":    comparison + 2,
	"detect":     comparison + 2,
	"history":    comparison + 3,
	"bisect":     comparison + 3,

	"report/github":          documents,
	"report/internal/render": documents,
	"report/plot":            documents,
	"report/site":            documents,
	"report":                 documents + 1,
	"report/trend":           documents + 1,
	"report/verdict":         documents + 1,

	"pipeline": pipelines,

	"internal/testing/cmpfixture": testSupport,
	"internal/testing/dirtest":    testSupport,
	"internal/testing/gittest":    testSupport,
	"internal/testing/golden":     testSupport,
	"internal/testing/hostile":    testSupport,
	"internal/testing/need":       testSupport,
	"internal/testing/proctab":    testSupport,
	"internal/testing/perf":       testSupport,
	"internal/testing/proftest":   testSupport,
	"internal/testing/synth":      testSupport,
	"internal/testing/badcorpus":  testSupport + 1,
	"internal/testing/nosamples":  testSupport + 1,
	"internal/testing/corpus":     testSupport + 1,
	"internal/testing/floor":      testSupport + 1,
	"internal/testing/loopmodule": testSupport + 1,

	"cmd/mbopt/internal/cli": command,
	"cmd/mbopt":              command + 1,
}

// relevanceHalf are the packages of the relevance half and its inputs and
// nouns, and comparisonHalf the packages that compare revisions and
// render comparisons: no package of the first list may depend on one of
// the second, even indirectly (TestRelevanceNeedsNoComparison). The halves
// meet in the nouns (package relevance) and in the command.
var (
	relevanceHalf  = []string{"analysis", "suite", "coverage", "optimize", "recommend", "changes", "callgraph", "manifest", "collect", "reference", "staticcg", "covdata", "relevance"}
	comparisonHalf = []string{"compare", "benchstats", "culprit", "bisect", "history", "detect", "report/verdict", "report/trend", "report/site"}
)

// testDir is the directory of test support: fixtures, golden files,
// synthetic suites and the programs that write test corpora. Only tests
// import its packages.
const testDir = "internal/testing/"

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

// deps returns the module packages pkg depends on, directly or not,
// without the module prefix.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", module+pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	var ds []string
	for _, dep := range strings.Fields(string(out)) {
		if rest, ok := strings.CutPrefix(dep, module); ok && rest != pkg {
			ds = append(ds, rest)
		}
	}
	return ds
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
		if strings.HasPrefix(pkg, testDir) {
			continue
		}
		for _, imp := range imps {
			if strings.HasPrefix(imp, testDir) {
				t.Errorf("%s imports %s outside its tests: test support (%s...) is for _test.go files only", pkg, imp, testDir)
			}
		}
	}
}

// TestPipelineNeedsNoRunner checks, over all transitive dependencies, that
// the packages that read collected profiles do not pull in the benchmark
// runner (package collect): the manifest is all they need of it.
func TestPipelineNeedsNoRunner(t *testing.T) {
	for _, pkg := range []string{"analysis", "report", "suite", "coverage", "optimize", "recommend", "callgraph", "manifest"} {
		for _, dep := range deps(t, pkg) {
			if dep == "collect" || dep == "reference" {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}

// TestOnlyPlotDraws checks that report/plot is the only package that
// imports gonum.org/v1/plot: the documents build a figure's data, and
// report/plot draws it.
func TestOnlyPlotDraws(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], module)
		for _, imp := range f[1:] {
			if (imp == gonumPlot || strings.HasPrefix(imp, gonumPlot+"/")) && pkg != "report/plot" {
				t.Errorf("%s imports %s: build the figure's data and let report/plot draw it", pkg, imp)
			}
		}
	}
}

// gonumPlot is the plotting library report/plot draws with.
const gonumPlot = "gonum.org/v1/plot"

// TestRelevanceNeedsNoComparison checks, over all transitive dependencies,
// that the relevance half never depends on the comparison half: what
// compare needs of an analysis is a shared noun (relevance.Impact), not an
// import.
func TestRelevanceNeedsNoComparison(t *testing.T) {
	for _, pkg := range relevanceHalf {
		if _, ok := layer[pkg]; !ok {
			t.Errorf("relevanceHalf names %s, which has no layer", pkg)
		}
		for _, dep := range deps(t, pkg) {
			if slices.Contains(comparisonHalf, dep) {
				t.Errorf("%s (relevance half) depends on %s (comparison half): share a noun instead (see package relevance)", pkg, dep)
			}
		}
	}
}
