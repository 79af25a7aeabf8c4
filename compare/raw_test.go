package compare_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
)

// TestBenchstatReadsRawFiles runs golang.org/x/perf/cmd/benchstat, built
// from the module cache at go.mod's version, on the raw files of a
// comparison: it must compare base.txt and head.txt in one table, as it
// would two go test outputs.
func TestBenchstatReadsRawFiles(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "benchstat")
	if out, err := exec.Command("go", "build", "-o", bin, "golang.org/x/perf/cmd/benchstat").CombinedOutput(); err != nil {
		t.Skipf("cannot build golang.org/x/perf/cmd/benchstat from the module cache (offline, no cached module?): %v\n%s", err, out)
	}
	// The benchmarks print "seed: 1", which the format reads as
	// configuration: it must not reach the raw files.
	dir := cmpfixture.Repo(t, cmpfixture.Variant{Seed: true})
	out := t.TempDir()
	s := tiny(1)
	s.Count = 3 // 6 measurements per version: benchstat's minimum for an interval
	if _, err := compare.Run(context.Background(), compare.Options{Dir: dir, Settings: s, CacheDir: t.TempDir(), Out: out}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, compare.BaseFile, compare.HeadFile)
	cmd.Dir = out
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchstat: %v\n%s", err, got)
	}
	text := string(got)
	t.Logf("benchstat base.txt head.txt:\n%s", text)
	if n := strings.Count(text, "vs base"); n != 1 {
		t.Errorf("benchstat printed %d comparison tables, want 1 (configuration lines that vary split tables)", n)
	}
	for _, name := range []string{"Slower", "Faster", "Same", "base.txt", "head.txt", "pkg: " + cmpfixture.Package} {
		if !strings.Contains(text, name) {
			t.Errorf("benchstat output lacks %q", name)
		}
	}
	if strings.Contains(text, "trial") || strings.Contains(text, "¹") || strings.Contains(text, "seed") {
		t.Errorf("benchstat output shows trials, seeds or footnotes")
	}
}

func TestAnalyzeRejectsForeignFiles(t *testing.T) {
	const marker = "# mbopt-compare side=base commit=aaa trial=1 run=1\n"
	for _, tc := range []struct{ name, content, want string }{
		{"go test output", "pkg: x\nBenchmarkA-2 10 100 ns/op\n", "before the first"},
		{"bad side", strings.Replace(marker, "base", "left", 1) + "BenchmarkA 10 100 ns/op\n", "want base or head"},
		{"no trial", "# mbopt-compare side=base run=1\nBenchmarkA 10 100 ns/op\n", "want side=, trial= and run="},
		{"two commits", marker + "BenchmarkA 10 100 ns/op\n" + strings.Replace(marker, "aaa", "bbb", 1) + "BenchmarkA 10 100 ns/op\n", "more than two revisions"},
	} {
		_, err := compare.AnalyzeReaders([]compare.Input{{Name: "f.txt", R: strings.NewReader(tc.content)}}, compare.Settings{}, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "f.txt") {
			t.Errorf("%s: error %v, want one naming f.txt and saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := compare.Analyze([]string{filepath.Join(t.TempDir(), "missing.txt")}, compare.Settings{}, nil); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

func TestAnalyzeShardsAndImpacts(t *testing.T) {
	// The example's files, each cut in two at a marker, give the same
	// report: shards of one comparison merge.
	var inputs []compare.Input
	for _, f := range []string{"testdata/base.txt", "testdata/head.txt"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(data), "trial=2 run=1")
		i = strings.LastIndex(string(data[:i]), "\n") + 1
		inputs = append(inputs, compare.Input{Name: f + "#1", R: strings.NewReader(string(data[:i]))}, compare.Input{Name: f + "#2", R: strings.NewReader(string(data[i:]))})
	}
	s := compare.Settings{Resamples: 500}
	impacts := map[string]callgraph.Impact{"example.com/codec.BenchmarkDecode": {Attributed: 0.5, Flat: 0.4}}
	split, err := compare.AnalyzeReaders(inputs, s, impacts)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := compare.Analyze([]string{"testdata/base.txt", "testdata/head.txt"}, s, impacts)
	if err != nil {
		t.Fatal(err)
	}
	if len(split.Results) != 2 || *split.Results[0].Estimate != *whole.Results[0].Estimate || *split.Results[1].Estimate != *whole.Results[1].Estimate {
		t.Errorf("split files: %+v\nwhole files: %+v", split.Results, whole.Results)
	}
	if r := whole.Results[1]; r.Impact == nil || r.Impact.Attributed != 0.5 {
		t.Errorf("impact not attached: %+v", r)
	}
	if whole.Base.Commit != strings.Repeat("1", 40) || whole.Head.Commit != strings.Repeat("2", 40) {
		t.Errorf("commits %q %q", whole.Base.Commit, whole.Head.Commit)
	}
}
