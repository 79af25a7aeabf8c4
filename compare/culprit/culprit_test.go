package culprit_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
)

// buildSide writes cmpfixture's HelperRepo module as its last commit
// before the helper's work doubles, or as the commit that doubles it when
// head is set, and builds its test binary.
func buildSide(t *testing.T, head bool) (bin, dir string) {
	t.Helper()
	dir = t.TempDir()
	c := cmpfixture.HelperCulprit - 1
	if head {
		c = cmpfixture.HelperCulprit
	}
	cmpfixture.WriteHelperModule(t, dir, c)
	bin = filepath.Join(dir, "work.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, "./work")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	return bin, dir
}

// sideProfile measures one side with the metric.
func sideProfile(t *testing.T, metric, bin, dir string) *culprit.Profile {
	t.Helper()
	switch metric {
	case "cpu":
		const n = 100000
		cpu := filepath.Join(dir, "cpu.pprof")
		cmd := exec.Command(bin, "-test.run", "^$", "-test.bench", "^BenchmarkWork$", "-test.benchtime", strconv.Itoa(n)+"x", "-test.cpu", "1", "-test.cpuprofile", cpu)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		f, err := os.Open(cpu)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		p, err := profile.Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		cp, err := culprit.FromCPUProfile(p, n+1) // Go runs b.N = 1 before n
		if err != nil {
			t.Fatal(err)
		}
		return cp
	default:
		o := measure.Options{Binary: bin, Dir: dir, Name: "BenchmarkWork", N1: 3, N2: 13, Tool: measure.Tool(metric), Keep: filepath.Join(dir, "vg")}
		v, err := measure.CountInstructions(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		p, err := culprit.Instructions(culprit.NewResolver(), v.Files[0], v.Files[1], v.N1, v.N2)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// TestInlinedHelperRanksFirst doubles the work of a helper the compiler
// inlines into its caller: with every metric the helper ranks first, and
// go tool pprof's diff of the written profiles shows it first too.
func TestInlinedHelperRanksFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures a fixture")
	}
	baseBin, baseDir := buildSide(t, false)
	headBin, headDir := buildSide(t, true)
	for _, metric := range []string{"cachegrind", "callgrind", "cpu"} {
		t.Run(metric, func(t *testing.T) {
			if metric != "cpu" {
				if _, err := exec.LookPath("valgrind"); err != nil {
					t.Skip("valgrind not installed")
				}
			}
			// Measurements per version: a function's change is told
			// from its noise by their spread. Counting repeats itself,
			// so three do; CPU samples (about 50 of the helper's per
			// profile) need five, as compare takes (CPUProfiles): with
			// three, Welch's test has 2 to 4 degrees of freedom and the
			// helper's doubling missed the 5% FDR in one CI run.
			n := 3
			if metric == "cpu" {
				n = 5
			}
			var base, head *culprit.Profile
			var bm, hm culprit.Measurements
			for range n {
				base = sideProfile(t, metric, baseBin, baseDir)
				head = sideProfile(t, metric, headBin, headDir)
				bm = append(bm, [][]map[string]float64{{base.Funcs()}})
				hm = append(hm, [][]map[string]float64{{head.Funcs()}})
			}
			app := &callgraph.Application{Shares: map[string]float64{cmpfixture.Package + ".Work": 0.4}}
			d, _ := culprit.Explain(bm, hm, culprit.Options{App: app, MinDelta: 0.5, FDR: 0.05})
			if len(d.Culprits) == 0 || d.Culprits[0].Function != cmpfixture.Helper {
				t.Fatalf("culprits %+v: want %s first", d.Culprits, cmpfixture.Helper)
			}
			c := d.Culprits[0]
			// CPU sampling on a shared machine is noisier than counting.
			minShare := 0.6
			if metric == "cpu" {
				minShare = 0.4
			}
			if c.Share < minShare || c.InApp {
				t.Errorf("helper's share %.2f in_app %v: want at least %.1f of the change, not in the application", c.Share, c.InApp, minShare)
			}
			if r := c.Head / c.Base; metric != "cpu" && math.Abs(r-2) > 0.05 {
				t.Errorf("helper head/base = %.3f, want 2 (twice the work)", r)
			}
			t.Logf("%s: total %.0f → %.0f %s/op; helper %.0f → %.0f (share %.2f)", metric, d.Base, d.Head, base.Unit, c.Base, c.Head, c.Share)
			dir := t.TempDir()
			bp, hp := filepath.Join(dir, "base.pprof"), filepath.Join(dir, "head.pprof")
			for path, p := range map[string]*culprit.Profile{bp: base, hp: head} {
				var buf bytes.Buffer
				if err := p.WritePprof(&buf); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, err := exec.Command("go", "tool", "pprof", "-top", "-diff_base", bp, hp).CombinedOutput()
			if err != nil {
				t.Fatalf("go tool pprof: %v\n%s", err, out)
			}
			if top := pprofTop(string(out)); top != cmpfixture.Helper {
				t.Errorf("go tool pprof -top -diff_base: top function %q, want %s\n%s", top, cmpfixture.Helper, out)
			}
		})
	}
}

// pprofTop returns the first function of go tool pprof -top's table.
func pprofTop(out string) string {
	rows := false
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if rows && len(f) >= 6 {
			return strings.Join(f[5:], " ")
		}
		if len(f) > 0 && f[0] == "flat" {
			rows = true
		}
	}
	return ""
}
