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
	testSupport = 60 // test support (testkit); only tests import it
	command     = 70 // cmd/mbopt
)

// layer maps folders to layers and steps: a package's layer is that of
// the longest entry that is the package or a folder above it, so the
// folders show the flow and a new package takes its folder's layer. An
// entry for a single package orders it within its folder's layer, or (in
// compare/, whose engine the relevance half's collection also runs
// benchmarks with) places it lower.
var layer = map[string]int{
	"internal":             helpers,
	"internal/gitrev":      helpers + 1,
	"internal/selfprofile": helpers + 1,
	"internal/statedir":    helpers + 1,
	"internal/testbin":     helpers + 1,
	"internal/tmpdir":      helpers + 1,
	"internal/benchname":   helpers + 2,
	"internal/opprof":      helpers + 1,

	"":                  nouns,     // the module's root package: the input error
	"internal/flagbind": nouns + 1, // flags bound to the root's mbopt.Field settings
	"callgraph":         nouns + 1,
	"relevance/shard":   nouns,

	"relevance/measure":   inputs,
	"relevance/covdata":   inputs,
	"relevance/manifest":  inputs,
	"relevance/reference": inputs + 1,
	"relevance/collect":   inputs + 1,

	"relevance":             relevance,
	"coverage":              relevance,
	"relevance/staticcg":    relevance,
	"relevance/suite":       relevance,
	"relevance/changes":     relevance + 1,
	"optimize":              relevance + 1,
	"recommend":             relevance + 1,
	"relevance/sensitivity": relevance + 2,
	"relevance/analysis":    relevance + 3,
	"relevance/flow":        relevance + 4,

	"compare":            comparison + 3,
	"compare/engine":     comparison + 2,
	"compare/benchstats": comparison,
	"compare/culprit":    comparison + 1,
	"compare/detect":     comparison + 2,
	"compare/history":    comparison + 4,
	"compare/bisect":     comparison + 4,
	"compare/mutate":     comparison + 4,
	"compare/flow":       comparison + 5,

	"report":              documents + 2,
	"report/github":       documents,
	"report/internal":     documents,
	"report/internal/doc": documents + 1,
	"report/plot":         documents,
	"report/site":         documents,

	"testkit":            testSupport,
	"testkit/badcorpus":  testSupport + 1,
	"testkit/nosamples":  testSupport + 1,
	"testkit/corpus":     testSupport + 1,
	"testkit/floor":      testSupport + 1,
	"testkit/loopmodule": testSupport + 1,

	"cmd":                    command + 1,
	"cmd/mbopt/internal/cli": command,
}

// layerOf returns pkg's layer (see layer) and whether some entry covers it.
func layerOf(pkg string) (int, bool) {
	for p := pkg; ; {
		if l, ok := layer[p]; ok {
			return l, true
		}
		if p == "" {
			return 0, false
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			p = ""
		} else {
			p = p[:i]
		}
	}
}

// relevanceHalf are the packages of the relevance half and its inputs and
// nouns, and comparisonHalf the packages that compare revisions and
// render comparisons: no package of the first list may depend on one of
// the second, even indirectly (TestRelevanceNeedsNoComparison). The halves
// meet in the nouns (package callgraph's Impact and Application) and in
// the command.
var (
	relevanceHalf  = []string{"relevance/flow", "relevance/analysis", "relevance/suite", "coverage", "optimize", "recommend", "relevance/changes", "callgraph", "relevance/manifest", "relevance/collect", "relevance/reference", "relevance/staticcg", "relevance/covdata"}
	comparisonHalf = []string{"compare", "compare/engine", "compare/benchstats", "compare/culprit", "compare/bisect", "compare/history", "compare/detect", "compare/flow", "report/verdict", "report/trend", "report/site"}
)

// testDir is the directory of test support: fixtures, golden files,
// synthetic suites and the programs that write test corpora. Only tests
// import its packages.
const testDir = "testkit/"

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
		l, ok := layerOf(pkg)
		if !ok {
			t.Errorf("package %s has no layer: add it to the table in layers_test.go and doc.go", pkg)
			continue
		}
		for _, imp := range imps {
			if li, ok := layerOf(imp); ok && li >= l {
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
	for _, pkg := range []string{"relevance/analysis", "report", "relevance/suite", "coverage", "optimize", "recommend", "callgraph", "relevance/manifest"} {
		for _, dep := range deps(t, pkg) {
			if dep == "relevance/collect" || dep == "relevance/reference" {
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
// compare needs of an analysis is a shared noun (callgraph.Impact), not an
// import.
func TestRelevanceNeedsNoComparison(t *testing.T) {
	for _, pkg := range relevanceHalf {
		if _, ok := layerOf(pkg); !ok {
			t.Errorf("relevanceHalf names %s, which has no layer", pkg)
		}
		for _, dep := range deps(t, pkg) {
			if slices.Contains(comparisonHalf, dep) {
				t.Errorf("%s (relevance half) depends on %s (comparison half): share a noun instead (see callgraph.Impact)", pkg, dep)
			}
		}
	}
}
