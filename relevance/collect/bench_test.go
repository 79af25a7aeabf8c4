package collect_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// Environment variables of BenchmarkCollectVsPaperProtocol.
const (
	// benchCollectEnv must be "1" for the benchmark to run.
	benchCollectEnv = "MBOPT_BENCH_COLLECT"
	// paperBenchTimeEnv overrides the paper protocol's -benchtime.
	paperBenchTimeEnv = "MBOPT_PAPER_BENCHTIME"
	// paperBenchTime is the -benchtime the papers ran every benchmark with.
	paperBenchTime = "10s"
)

// BenchmarkCollectVsPaperProtocol compares mbopt's default collection with
// the protocol of the papers mbopt follows, on the example module
// (../testdata/example), by the wall time each takes and by the coverage
// map each yields. It takes about 7 minutes on 2 cores, so it is skipped
// unless MBOPT_BENCH_COLLECT=1; scripts/bench.sh ('make bench') sets it.
// Run it once:
//
//	MBOPT_BENCH_COLLECT=1 go test -run '^$' -bench '^BenchmarkCollectVsPaperProtocol$' -benchtime 1x -timeout 30m ./collect
//
// The paper protocol runs, for every top-level benchmark that
// [collect.Discover] finds, one after the other,
//
//	go test -run '^$' -bench '^Name$' -benchtime 10s -cpuprofile <file> -o <file> <pkg>
//
// from the module directory. go test links a new test binary on every
// invocation (that is the "recompiling per benchmark"), and the
// sub-benchmarks of Name run inside the same process, so they share its
// profile. MBOPT_PAPER_BENCHTIME overrides the 10s, for quick trials; the
// value used is printed. The -o only keeps the test binary, which go test
// leaves behind when profiling, out of the repository.
//
// mbopt's default collection is [collect.Collect] with a zero Config apart
// from Dir and Out: one profile per leaf benchmark, [collect.DefaultBenchTime]
// each, runtime.GOMAXPROCS(0) at a time, every test binary built once. Its
// wall time includes the builds and the discovery runs.
//
// Before either is timed, `go test -run '^$'` over the module's benchmark
// packages fills the build cache, so both timings include linking but not
// compiling the packages, whichever runs first.
//
// A protocol's coverage map is the union of the functions, by normalized
// name, in all its profiles (callgraph.Load with the example module as the
// project). The metrics are
//
//	paper-wall-s, mbopt-wall-s        wall time of each protocol
//	speedup                           paper-wall-s / mbopt-wall-s
//	funcs-found-%                     share of the paper map's functions that mbopt's map holds
//	project-funcs-found-%             the same over the module's own functions
//	paper-app-project-covered-%       share of the application's module functions in the paper map
//	mbopt-app-project-covered-%       the same for mbopt's map
//	paper-app-covered-%               share of all the application's functions in the paper map
//	mbopt-app-covered-%               the same for mbopt's map
//
// The application is ../testdata/profiles/example/app.pprof, and its
// coverage is [coverage.Compute] with the map as the only benchmark.
//
// A table with the counts behind every percentage, and the module functions
// only the paper protocol found, is logged too; progress goes to stderr.
// ns/op is not reported: the benchmark times its two protocols itself. With
// -benchtime Nx each iteration repeats the whole comparison and the last one
// is reported.
func BenchmarkCollectVsPaperProtocol(b *testing.B) {
	if os.Getenv(benchCollectEnv) != "1" {
		b.Skipf("set %s=1 to run: it profiles every benchmark of testdata/example for %s, then with mbopt's defaults (about 7 minutes)",
			benchCollectEnv, paperBenchTime)
	}
	benchtime := paperBenchTime
	if v := os.Getenv(paperBenchTimeEnv); v != "" {
		benchtime = v
	}
	if !validBenchTime(benchtime) {
		b.Fatalf("%s=%q: want a duration such as 10s or a count such as 100x", paperBenchTimeEnv, benchtime)
	}
	dir, err := filepath.Abs("../../testdata/example")
	if err != nil {
		b.Fatal(err)
	}
	const module = "example.com/tinytsdb"
	opts := callgraph.Options{Modules: []string{module}, AllowEmpty: true}
	app, err := callgraph.Load([]string{"../../testdata/profiles/example/app.pprof"}, opts)
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	pkgs, err := collect.Discover(ctx, collect.Config{Dir: dir})
	if err != nil {
		b.Fatalf("%s: discovering benchmarks: %v", dir, err)
	}
	if err := warmBuildCache(ctx, dir, pkgs); err != nil {
		b.Fatal(err)
	}
	source := "default"
	if os.Getenv(paperBenchTimeEnv) != "" {
		source = "from " + paperBenchTimeEnv
	}
	progress("paper protocol: -benchtime %s (%s), sequential, one go test per benchmark", benchtime, source)

	var paper, mbopt protocolResult
	for range b.N {
		tmp := b.TempDir()
		paper, err = runPaperProtocol(ctx, dir, pkgs, benchtime, filepath.Join(tmp, "paper"))
		if err != nil {
			b.Fatal(err)
		}
		mbopt, err = runDefaultCollect(ctx, dir, filepath.Join(tmp, "mbopt"))
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range []*protocolResult{&paper, &mbopt} {
			if err := r.summarize(app, opts); err != nil {
				b.Fatal(err)
			}
		}
	}

	found, foundProject, missed := recall(paper.graph, mbopt.graph)
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(paper.wall.Seconds(), "paper-wall-s")
	b.ReportMetric(mbopt.wall.Seconds(), "mbopt-wall-s")
	b.ReportMetric(paper.wall.Seconds()/mbopt.wall.Seconds(), "speedup")
	b.ReportMetric(100*found.Ratio, "funcs-found-%")
	b.ReportMetric(100*foundProject.Ratio, "project-funcs-found-%")
	b.ReportMetric(100*paper.cov.Project.Ratio, "paper-app-project-covered-%")
	b.ReportMetric(100*mbopt.cov.Project.Ratio, "mbopt-app-project-covered-%")
	b.ReportMetric(100*paper.cov.Overall.Ratio, "paper-app-covered-%")
	b.ReportMetric(100*mbopt.cov.Overall.Ratio, "mbopt-app-covered-%")

	// go test keeps only the first 10 lines a benchmark logs.
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s (testdata/example): paper protocol with -benchtime %s (%s)\n", module, benchtime, source)
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\tpaper (sequential)\tmbopt (defaults)\t\n")
	fmt.Fprintf(tw, "wall time, profiles\t%s, %d\t%s, %d\t\n",
		paper.wall.Round(100*time.Millisecond), paper.runs, mbopt.wall.Round(100*time.Millisecond), mbopt.runs)
	fmt.Fprintf(tw, "functions, module / all\t%d / %d\t%d / %d\t\n",
		paper.graph.ProjectLen(), paper.graph.Len(), mbopt.graph.ProjectLen(), mbopt.graph.Len())
	fmt.Fprintf(tw, "app covered, module\t%s\t%s\t\n", ratio(paper.cov.Project), ratio(mbopt.cov.Project))
	fmt.Fprintf(tw, "app covered, all\t%s\t%s\t\n", ratio(paper.cov.Overall), ratio(mbopt.cov.Overall))
	tw.Flush()
	fmt.Fprintf(&sb, "speedup %.1fx; mbopt found %s of the paper map's module functions, %s of all its functions",
		paper.wall.Seconds()/mbopt.wall.Seconds(), ratio(foundProject), ratio(found))
	if len(missed) > 0 {
		fmt.Fprintf(&sb, "\nmodule functions only the paper protocol found: %s", strings.Join(missed, ", "))
	}
	b.Log(sb.String())
}

// protocolResult is what one collection protocol produced.
type protocolResult struct {
	wall     time.Duration
	runs     int      // profiled processes
	profiles []string // profile paths, one per process
	graph    *callgraph.Graph
	cov      *coverage.Result
}

// summarize builds r's coverage map (the merged graph of its profiles) and
// its coverage of app.
func (r *protocolResult) summarize(app *callgraph.Graph, opts callgraph.Options) error {
	g, err := callgraph.Load(r.profiles, opts)
	if err != nil {
		return err
	}
	r.graph = g
	r.cov = coverage.Compute(app, []coverage.Benchmark{{ID: "union", Graph: g}})
	return nil
}

// runPaperProtocol runs every top-level benchmark of pkgs for benchtime,
// sequentially, with one go test invocation each, writing profiles and test
// binaries under out. It stops at the first benchmark that fails.
func runPaperProtocol(ctx context.Context, dir string, pkgs []collect.Package, benchtime, out string) (protocolResult, error) {
	var r protocolResult
	if err := os.MkdirAll(out, 0o755); err != nil {
		return r, err
	}
	total := 0
	for _, p := range pkgs {
		total += len(p.Benchmarks)
	}
	start := time.Now()
	for _, p := range pkgs {
		for _, name := range p.Benchmarks {
			id := benchname.ID(p.Path, name)
			base := filepath.Join(out, strconv.Itoa(r.runs))
			prof := base + ".pprof"
			t0 := time.Now()
			cmd := exec.CommandContext(ctx, "go", "test", "-run", "^$", "-bench", "^"+regexp.QuoteMeta(name)+"$",
				"-benchtime", benchtime, "-cpuprofile", prof, "-o", base+".test", p.Path)
			cmd.Dir = dir
			if outb, err := cmd.CombinedOutput(); err != nil {
				return r, fmt.Errorf("paper protocol: %s: %v\n%s", id, err, outb)
			}
			r.runs++
			r.profiles = append(r.profiles, prof)
			progress("paper [%d/%d] %s %s", r.runs, total, id, time.Since(t0).Round(100*time.Millisecond))
		}
	}
	r.wall = time.Since(start)
	return r, nil
}

// runDefaultCollect runs collect.Collect with its defaults into out.
func runDefaultCollect(ctx context.Context, dir, out string) (protocolResult, error) {
	var r protocolResult
	start := time.Now()
	m, err := collect.Collect(ctx, collect.Config{Dir: dir, Out: out})
	r.wall = time.Since(start)
	if err != nil {
		return r, fmt.Errorf("mbopt collect: %w", err)
	}
	if probs := m.Problems(); len(probs) > 0 {
		var msgs []string
		for _, e := range probs {
			msgs = append(msgs, fmt.Sprintf("%s: %s: %s", e.ID, e.Status, e.Error))
		}
		return r, fmt.Errorf("mbopt collect: %d of %d benchmarks did not succeed:\n%s", len(probs), len(m.Benchmarks), strings.Join(msgs, "\n"))
	}
	for _, e := range m.Benchmarks {
		if e.Status == manifest.StatusOK {
			r.profiles = append(r.profiles, filepath.Join(out, e.Profile))
		}
	}
	r.runs = len(r.profiles)
	progress("mbopt: %d benchmarks in %s", r.runs, r.wall.Round(100*time.Millisecond))
	return r, nil
}

// warmBuildCache compiles the test packages of pkgs without running
// anything, so that neither protocol pays for compiling them.
func warmBuildCache(ctx context.Context, dir string, pkgs []collect.Package) error {
	args := []string{"test", "-count", "1", "-run", "^$"}
	for _, p := range pkgs {
		args = append(args, p.Path)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("warming the build cache: go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// recall returns the share of ref's nodes that g holds, over all nodes and
// over project nodes, and the names of ref's project nodes g lacks, sorted.
func recall(ref, g *callgraph.Graph) (all, project coverage.Ratio, missed []string) {
	for _, n := range ref.Nodes {
		_, ok := g.Lookup(n.Name)
		all.Total++
		if n.Project {
			project.Total++
		}
		if ok {
			all.Covered++
			if n.Project {
				project.Covered++
			}
		} else if n.Project {
			missed = append(missed, n.Name)
		}
	}
	for _, r := range []*coverage.Ratio{&all, &project} {
		if r.Total > 0 {
			r.Ratio = float64(r.Covered) / float64(r.Total)
		}
	}
	slices.Sort(missed)
	return all, project, missed
}

// ratio formats r as "12/34 (35.3%)".
func ratio(r coverage.Ratio) string {
	return fmt.Sprintf("%d/%d (%.1f%%)", r.Covered, r.Total, 100*r.Ratio)
}

// validBenchTime reports whether s is a -benchtime value: a positive
// duration or a positive count followed by "x".
func validBenchTime(s string) bool {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		v, err := strconv.Atoi(n)
		return err == nil && v > 0
	}
	d, err := time.ParseDuration(s)
	return err == nil && d > 0
}

// progress prints one line of progress on stderr, which go test passes
// through as the benchmark runs, unlike b.Log output.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "collect-vs-paper: "+format+"\n", args...)
}
