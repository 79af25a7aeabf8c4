package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/report"
	"github.com/mbopt/mbopt/testkit/golden"
	"github.com/mbopt/mbopt/testkit/proftest"
)

const example = "../testdata/profiles/example"

// exampleDoc analyses the example module's three recorded scenarios with
// the default (attributed) impact.
func exampleDoc(t *testing.T) *report.Document { return exampleDocImpact(t, coverage.AttributedImpact) }

// exampleDocImpact is exampleDoc with the given impact.
func exampleDocImpact(t *testing.T, impact coverage.ImpactKind) *report.Document {
	t.Helper()
	var files []string
	var scs []analysis.ScenarioSpec
	for _, name := range []string{"mixed", "ingest", "query"} {
		file := example + "/app-" + name + ".pprof"
		if name == "mixed" {
			file = example + "/app.pprof"
		}
		files = append(files, file)
		scs = append(scs, analysis.ScenarioSpec{Name: name, Files: []string{file}})
	}
	rep, err := analysis.Run(context.Background(), analysis.Config{
		App: files, Scenarios: scs, Micro: []string{example + "/micro"},
		Modules: []string{"example.com/tinytsdb"}, Recommend: 5, Certify: true, Impact: impact,
	})
	require.NoError(t, err)
	return report.Build(rep)
}

// exampleImages names the example report's figure files.
var exampleImages = map[string]string{
	"suite-coverage": "suite-coverage.svg", "recommend-coverage": "recommend-coverage.svg", "suite-impact": "suite-impact.svg",
}

func TestExampleReportGolden(t *testing.T) {
	d := exampleDoc(t)
	var md bytes.Buffer
	require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{Images: exampleImages}))
	golden.Check(t, filepath.Join("..", "testdata", "golden", "report-example.md"), md.Bytes())

	// The data behind the plots, exactly; the drawings only loosely
	// (fonts differ between machines).
	figs := report.Figures(d)
	data, err := json.MarshalIndent(figs, "", "  ")
	require.NoError(t, err)
	golden.Check(t, filepath.Join("..", "testdata", "golden", "report-example-figures.json"), append(data, '\n'))
	require.Len(t, figs, 3)
	for _, f := range figs {
		t.Run(f.Name, func(t *testing.T) {
			b, err := f.PNG()
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(b))
			require.NoError(t, err)
			w, h := f.Size()
			assert.Equal(t, int(math.Round(w.Dots(96))), img.Bounds().Dx(), "width")
			assert.Equal(t, int(math.Round(h.Dots(96))), img.Bounds().Dy(), "height")
			svg, err := f.SVG()
			require.NoError(t, err)
			assert.True(t, bytes.HasPrefix(bytes.TrimSpace(svg), []byte("<?xml")), "SVG document")
		})
	}
}

// TestExampleReportGoldenFlat: with the paper's flat reference impact the
// Markdown and the figures are exactly what they were before the
// attributed impact existed.
func TestExampleReportGoldenFlat(t *testing.T) {
	d := exampleDocImpact(t, coverage.FlatImpact)
	var md bytes.Buffer
	require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{Images: exampleImages}))
	golden.Check(t, filepath.Join("..", "testdata", "golden", "report-example-flat.md"), md.Bytes())
	data, err := json.MarshalIndent(report.Figures(d), "", "  ")
	require.NoError(t, err)
	golden.Check(t, filepath.Join("..", "testdata", "golden", "report-example-flat-figures.json"), append(data, '\n'))
}

// TestCertificateGapPrinted: two rows of seven nodes, columns of 8, 4 and
// 2 across them (optimize's lp_test explains the numbers): greedy 3, LP
// optimum 2, so the report must say the suite is at most 1 larger.
func TestCertificateGapPrinted(t *testing.T) {
	opts := callgraph.Options{Modules: []string{"p"}}
	node := func(i int) string { return "p.f" + string(rune('a'+i)) }
	var stacks []proftest.Stack
	for i := 0; i < 14; i++ {
		stacks = append(stacks, proftest.Stack{Frames: []string{node(i)}, Nanos: 1e7})
	}
	app, err := callgraph.New(proftest.Profile(stacks...), opts)
	require.NoError(t, err)
	bench := func(id string, nodes ...int) coverage.Benchmark {
		var ss []proftest.Stack
		for _, n := range nodes {
			ss = append(ss, proftest.Stack{Frames: []string{node(n)}, Nanos: 1e7})
		}
		g, err := callgraph.New(proftest.Profile(ss...), opts)
		require.NoError(t, err)
		return coverage.Benchmark{ID: id, Graph: g}
	}
	cov := coverage.Compute(app, []coverage.Benchmark{
		bench("R1", 0, 1, 2, 3, 4, 5, 6), bench("R2", 7, 8, 9, 10, 11, 12, 13),
		bench("C1", 0, 1, 2, 3, 7, 8, 9, 10), bench("C2", 4, 5, 11, 12), bench("C3", 6, 13),
	})
	cert, err := optimize.Certify(cov, optimize.CertifyOptions{})
	require.NoError(t, err)
	d := report.Build(&analysis.Report{Modules: []string{"p"}, Coverage: cov,
		Suite: optimize.Greedy(cov, optimize.Options{}), Certificate: cert})
	want := "Algorithm 2's suite has 3 benchmarks; any suite with the same project coverage needs at least 2 (LP relaxation optimum 2.000 over 6 nodes × 5 benchmarks after reduction), so it is at most 1 benchmark larger than the optimum (gap 1, ratio ≤ 1.50)."
	assert.Equal(t, want, report.CertificateText(d.Certificate))
	var md bytes.Buffer
	require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{}))
	assert.Contains(t, md.String(), "**Optimality.** "+want)
}

// TestHTMLInBrowser renders the example report in headless chromium via
// scripts/check-report.sh, which fails on a missing or broken image.
func TestHTMLInBrowser(t *testing.T) {
	d := exampleDoc(t)
	var imgs []report.HTMLImage
	for _, f := range report.Figures(d) {
		b, err := f.PNG()
		require.NoError(t, err)
		imgs = append(imgs, report.HTMLImage{Figure: f, PNG: b})
	}
	var html bytes.Buffer
	require.NoError(t, report.WriteHTML(&html, d, imgs))
	page := html.String()
	assert.Equal(t, 3, strings.Count(page, `src="data:image/png;base64,`), "figures inlined")
	assert.NotContains(t, page, `src="http`, "self-contained")
	assert.Contains(t, page, "Pair-wise overlap")

	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium not installed (apt-get install -y chromium): skipping the browser check")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	require.NoError(t, os.WriteFile(path, html.Bytes(), 0o644))
	out, err := exec.Command("bash", "../scripts/check-report.sh", path, filepath.Join(dir, "shot.png")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "3 images, broken: []")
}

func TestSuiteCostText(t *testing.T) {
	tests := []struct {
		name string
		c    report.SuiteCost
		want string
	}{
		{"cheaper from profiles", report.SuiteCost{Source: "profiles", Algorithm2Seconds: 47.4, Algorithm2Benchmarks: 5, CheapestSeconds: 6.95, CheapestBenchmarks: 1},
			"Algorithm 2 47.40s (5 benchmarks); cheapest with the same coverage 6.95s (1 benchmark, --objective cost); costs from each profile's recorded duration"},
		{"already cheapest, from a manifest", report.SuiteCost{Source: "manifest", SourceFiles: []string{"p/manifest.json"}, Algorithm2Seconds: 3, Algorithm2Benchmarks: 1, CheapestSeconds: 3, CheapestBenchmarks: 1},
			"Algorithm 2 3.00s (1 benchmark); no cheaper suite with the same coverage found (--objective cost); costs from the collection manifest p/manifest.json"},
		{"costs file", report.SuiteCost{Source: "file", SourceFiles: []string{"costs.csv"}, Algorithm2Seconds: 2, Algorithm2Benchmarks: 2, CheapestSeconds: 1, CheapestBenchmarks: 1},
			"Algorithm 2 2.00s (2 benchmarks); cheapest with the same coverage 1.00s (1 benchmark, --objective cost); costs from costs.csv"},
		// Another objective chose the suite: its cost comes first.
		{"caught suite", report.SuiteCost{Source: "profiles", Algorithm2Seconds: 20.52, Algorithm2Benchmarks: 4, CheapestSeconds: 20.52, CheapestBenchmarks: 4,
			Selected: &report.SelectedCost{Objective: "caught", Seconds: 0.53, Benchmarks: 2}},
			"selected suite (--objective caught) 0.53s (2 benchmarks); Algorithm 2 20.52s (4 benchmarks); no cheaper suite with the same coverage found (--objective cost); costs from each profile's recorded duration"},
		{"budgeted, weighted suite", report.SuiteCost{Source: "file", SourceFiles: []string{"costs.csv"}, Algorithm2Seconds: 2, Algorithm2Benchmarks: 2, CheapestSeconds: 1, CheapestBenchmarks: 1,
			Selected: &report.SelectedCost{Objective: "nodes", Weighted: true, BudgetSeconds: 1.5, Seconds: 1, Benchmarks: 1}},
			"selected suite (--objective nodes, weighted by scenario, --budget 1.50s) 1.00s (1 benchmark); Algorithm 2 2.00s (2 benchmarks); cheapest with the same coverage 1.00s (1 benchmark, --objective cost); costs from costs.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, report.SuiteCostText(&tt.c))
		})
	}
}

func TestCostCertificateText(t *testing.T) {
	tests := []struct {
		name string
		c    report.CostCertificate
		want string
	}{
		{"optimal", report.CostCertificate{Criterion: "project", CostSeconds: 2, LowerBoundSeconds: 2, LP: 2, Solved: true, Rows: 2, Cols: 3},
			"The --objective cost suite costs 2.00s; any suite with the same project coverage costs at least 2.00s (weighted LP relaxation optimum 2.000 s over 2 nodes × 3 benchmarks after reduction), so it is the cheapest."},
		{"a gap", report.CostCertificate{Criterion: "all", CostSeconds: 4, LowerBoundSeconds: 3, LP: 3, Solved: true, Rows: 3, Cols: 3},
			"The --objective cost suite costs 4.00s; any suite with the same all coverage costs at least 3.00s (weighted LP relaxation optimum 3.000 s over 3 nodes × 3 benchmarks after reduction), so it costs at most 1.33× the cheapest."},
		{"LP skipped, no essential benchmark", report.CostCertificate{Criterion: "project", CostSeconds: 4, Skipped: "too big"},
			"The --objective cost suite costs 4.00s; any suite with the same project coverage costs at least 0.00s (benchmarks that alone cover some node; LP skipped: too big)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, report.CostCertificateText(&tt.c))
		})
	}
}

// TestOneBenchmarkGrammar: counts of one read in the singular in the text
// and Markdown reports ("1 benchmark", not "1 benchmarks" or
// "benchmark(s)").
func TestOneBenchmarkGrammar(t *testing.T) {
	opts := callgraph.Options{Modules: []string{"p"}}
	app, err := callgraph.New(proftest.Profile(proftest.Stack{Frames: []string{"p.f", "p.main"}, Nanos: 1e7}), opts)
	require.NoError(t, err)
	b, err := callgraph.New(proftest.Profile(proftest.Stack{Frames: []string{"p.f"}, Nanos: 1e7}), opts)
	require.NoError(t, err)
	cov := coverage.Compute(app, []coverage.Benchmark{{ID: "B", Graph: b}})
	d := report.Build(&analysis.Report{Modules: []string{"p"}, AppProfiles: []string{"app.pprof"}, Coverage: cov,
		Suite: optimize.Greedy(cov, optimize.Options{})})
	var text, md, summary bytes.Buffer
	require.NoError(t, report.WriteText(&text, d, report.TextOptions{}))
	require.NoError(t, report.WriteMarkdown(&md, d, report.MarkdownOptions{}))
	require.NoError(t, report.WriteMarkdown(&summary, d, report.MarkdownOptions{Summary: true}))
	for _, tt := range []struct {
		name, out string
		want      []string
	}{
		{"text", text.String(), []string{"Application  1 profile, ", "1 of 1 benchmark keeps the same coverage"}},
		{"markdown", md.String(), []string{"The application (1 profile) calls", "The 1 analysed benchmark covers", "## Minimal suite (Algorithm 2): 1 of 1 benchmark\n",
			"This benchmark keeps"}},
		{"summary", summary.String(), []string{"<summary>All 1 benchmark</summary>"}},
	} {
		for _, w := range tt.want {
			assert.Contains(t, tt.out, w, tt.name)
		}
		for _, bad := range []string{"(s)", "1 benchmarks", "1 profiles"} {
			assert.NotContains(t, tt.out, bad, tt.name)
		}
	}
}
