package collect_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// Environment variables of BenchmarkSources.
const (
	// benchSourcesEnv must be "1" for BenchmarkSources to run.
	benchSourcesEnv = "MBOPT_BENCH_SOURCES"
	// benchSourcesDirEnv names the module to collect (a directory in
	// it); default ../testdata/example.
	benchSourcesDirEnv = "MBOPT_BENCH_SOURCES_DIR"
	// paperRunEnv = "1" runs the paper protocol instead of estimating it.
	paperRunEnv = "MBOPT_PAPER_RUN"
)

// BenchmarkSources compares, on one module, the time to a coverage map and
// the functions found by three collections:
//
//   - paper: the papers' protocol, every top-level benchmark for 10s,
//     sequentially, one go test each (see BenchmarkCollectVsPaperProtocol).
//     It runs only with MBOPT_PAPER_RUN=1; otherwise its wall time is
//     estimated from the profile collection's per-benchmark wall times as
//     the sum over benchmarks of (wall - 1s + 10s), which leaves out the
//     relinking of one go test per benchmark and so is a lower bound, and
//     its functions are not known.
//   - profile: collect.Collect with its defaults (Source profile, 1s per
//     benchmark, one job per CPU).
//   - cover: collect.Collect with Source cover and Scope all
//     (DefaultCoverBenchTime).
//
// Function recall is measured against the union of what the collections
// found, over the module's functions in packages the cover binaries
// instrument, leaving out functions declared in _test.go files, which
// coverage never instruments: a profile collection finds a function when
// one of its profiles samples it (by normalised name); the cover collection
// finds it when it is in a function set or, for the names only profiles
// have (closures copied by inlining, compiler wrappers), when
// covdata.Set.Contains says so.
//
// It is skipped unless MBOPT_BENCH_SOURCES=1; MBOPT_BENCH_SOURCES_DIR names
// the module (default ../testdata/example). scripts/bench.sh ('make bench')
// runs it on the example module and on mbopt's own repository:
//
//	MBOPT_BENCH_SOURCES=1 go test -run '^$' -bench '^BenchmarkSources$' -benchtime 1x -timeout 60m ./collect
func BenchmarkSources(b *testing.B) {
	if os.Getenv(benchSourcesEnv) != "1" {
		b.Skipf("set %s=1 to run: it collects a module's benchmarks twice", benchSourcesEnv)
	}
	// The benchmarks collected must not run these comparisons themselves
	// when the module is mbopt's own.
	b.Setenv(benchSourcesEnv, "")
	b.Setenv(benchCollectEnv, "")
	dir := os.Getenv(benchSourcesDirEnv)
	if dir == "" {
		dir = "../../testdata/example"
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		b.Fatal(err)
	}
	ctx := b.Context()
	pkgs, err := collect.Discover(ctx, collect.Config{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	if err := warmBuildCache(ctx, dir, pkgs); err != nil {
		b.Fatal(err)
	}
	type result struct {
		name  string
		wall  time.Duration
		units int
		funcs map[string]bool // found, by name
		est   bool            // wall is an estimate, funcs unknown
	}
	var prof, cov, paper result
	var module string
	var set *covdata.Set
	for range b.N {
		tmp := b.TempDir()
		collectOne := func(src manifest.Source) (*manifest.Manifest, string, time.Duration) {
			out := filepath.Join(tmp, string(src))
			start := time.Now()
			cfg := collect.Config{Dir: dir, Out: out, Source: src}
			if src == manifest.SourceCover {
				cfg.Scope = manifest.ScopeAll // everything a run executes, as a profile samples it
			}
			m, err := collect.Collect(ctx, cfg)
			wall := time.Since(start)
			if err != nil {
				b.Fatalf("collect %s: %v", src, err)
			}
			progress("%s: %d benchmarks in %s", src, len(m.Benchmarks), wall.Round(100*time.Millisecond))
			return m, out, wall
		}
		cm, cout, cwall := collectOne(manifest.SourceCover)
		module = cm.Module
		set = &covdata.Set{}
		seen := map[string]bool{}
		pkgSeen := map[string]bool{}
		for _, e := range cm.Benchmarks {
			if e.Functions == "" {
				continue
			}
			s, err := covdata.ReadFile(filepath.Join(cout, e.Functions))
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range s.Packages {
				if !pkgSeen[p] {
					pkgSeen[p] = true
					set.Packages = append(set.Packages, p)
				}
			}
			for _, f := range s.Funcs {
				if !seen[f.Name] {
					seen[f.Name] = true
					set.Funcs = append(set.Funcs, f)
				}
			}
		}
		slices.Sort(set.Packages)
		slices.SortFunc(set.Funcs, func(a, b covdata.Func) int { return strings.Compare(a.Name, b.Name) })
		cov = result{name: "cover", wall: cwall, units: cm.Count(manifest.StatusOK), funcs: seen}

		pm, pout, pwall := collectOne(manifest.SourceProfile)
		var files []string
		est := 0.0
		for _, e := range pm.Benchmarks {
			est += e.WallSeconds - 1 + 10
			if e.Profile != "" {
				files = append(files, filepath.Join(pout, e.Profile))
			}
		}
		prof = result{name: "profile", wall: pwall, units: len(files), funcs: profileFuncs(b, files, module, set)}

		paper = result{name: "paper", wall: time.Duration(est * float64(time.Second)), est: true}
		if os.Getenv(paperRunEnv) == "1" {
			r, err := runPaperProtocol(ctx, dir, pkgs, paperBenchTime, filepath.Join(tmp, "paper"))
			if err != nil {
				b.Fatal(err)
			}
			paper = result{name: "paper", wall: r.wall, units: r.runs, funcs: profileFuncs(b, r.profiles, module, set)}
		}
	}

	union := map[string]bool{}
	for _, r := range []result{paper, prof, cov} {
		for f := range r.funcs {
			union[f] = true
		}
	}
	found := func(r result) (int, []string) {
		n := 0
		var missed []string
		for f := range union {
			if r.funcs[f] || r.name == "cover" && set.Contains(f) {
				n++
			} else {
				missed = append(missed, strings.TrimPrefix(f, module+"/"))
			}
		}
		slices.Sort(missed)
		return n, missed
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s (%s): time to a coverage map and module functions found (union of the three: %d)\n", module, dir, len(union))
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "collection\twall\tbenchmarks\tfunctions found\trecall\tspeedup vs paper\t\n")
	for _, r := range []result{paper, prof, cov} {
		wall := r.wall.Round(100 * time.Millisecond).String()
		if r.est {
			wall = "~" + wall + " (estimated)"
		}
		n, _ := found(r)
		rec := fmt.Sprintf("%.1f%%", 100*float64(n)/float64(max(len(union), 1)))
		fn := fmt.Sprint(n)
		if r.est {
			rec, fn = "not run", "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.1fx\t\n", r.name, wall, r.units, fn, rec, paper.wall.Seconds()/r.wall.Seconds())
		name := r.name
		if !r.est {
			b.ReportMetric(100*float64(n)/float64(max(len(union), 1)), name+"-recall-%")
		}
		b.ReportMetric(r.wall.Seconds(), name+"-wall-s")
	}
	tw.Flush()
	for _, r := range []result{paper, prof, cov} {
		if _, missed := found(r); !r.est && len(missed) > 0 {
			fmt.Fprintf(&sb, "%s missed %d: %s\n", r.name, len(missed), strings.Join(missed, ", "))
		}
	}
	b.ReportMetric(0, "ns/op")
	fmt.Fprint(os.Stdout, sb.String())
}

// profileFuncs returns the names of the module functions the profiles in
// files sampled that lie in packages set instruments, leaving out those
// declared in _test.go files.
func profileFuncs(b *testing.B, files []string, module string, set *covdata.Set) map[string]bool {
	b.Helper()
	out := map[string]bool{}
	if len(files) == 0 {
		return out
	}
	g, err := callgraph.Load(files, callgraph.Options{Modules: []string{module}, AllowEmpty: true, NoEdges: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range g.Nodes {
		if n.Project && set.Instrumented(n.Package) && !strings.HasSuffix(n.File, "_test.go") {
			out[n.Name] = true
		}
	}
	return out
}
