package plot

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

var figuresDir = flag.String("figures", "", "also write the long-id test figures as PNG into this directory, to look at")

func TestIDLabels(t *testing.T) {
	tests := []struct {
		name   string
		ids    []string
		want   []string
		prefix string
	}{{
		name:   "common module trimmed, last element kept",
		ids:    []string{"example.com/m/internal/storage.BenchmarkAdd", "example.com/m/query.BenchmarkSelect/n=10"},
		want:   []string{"internal/storage.BenchmarkAdd", "query.BenchmarkSelect/n=10"},
		prefix: "example.com/m",
	}, {
		name:   "module root package keeps its last element",
		ids:    []string{"example.com/m.BenchmarkRoot", "example.com/m/a.BenchmarkA"},
		want:   []string{"m.BenchmarkRoot", "m/a.BenchmarkA"},
		prefix: "example.com",
	}, {
		name:   "one id",
		ids:    []string{"go.etcd.io/bbolt/internal/btree.BenchmarkSplit"},
		want:   []string{"btree.BenchmarkSplit"},
		prefix: "go.etcd.io/bbolt/internal",
	}, {
		name: "file names are kept and do not count for the prefix",
		ids:  []string{"query__BenchmarkQuery", "example.com/m/a.BenchmarkA", "example.com/m/b.BenchmarkB"},
		want: []string{"query__BenchmarkQuery", "a.BenchmarkA", "b.BenchmarkB"},
		// The file name has no import path: only the split ids share one.
		prefix: "example.com/m",
	}, {
		name: "nothing shared",
		ids:  []string{"a.example/x.BenchmarkA", "b.example/y.BenchmarkB"},
		want: []string{"a.example/x.BenchmarkA", "b.example/y.BenchmarkB"},
	}, {
		name: "long label keeps the package's last element, then wraps before the sub-benchmark",
		ids: []string{
			"go.etcd.io/some/module/internal/storage.BenchmarkWriteBatch/size=1024/parallel=true",
			"go.etcd.io/some/module/server/etcdserver/api/v3rpc.BenchmarkRange",
		},
		want: []string{
			"…/storage.BenchmarkWriteBatch/\nsize=1024/parallel=true",
			"…/v3rpc.BenchmarkRange",
		},
		prefix: "go.etcd.io/some/module",
	}, {
		name: "longer than two lines: the middle parts give way to …",
		ids: []string{
			"example.com/m/a.BenchmarkAnExtremelyLongBenchmarkFunctionNameIndeed/with=a/lot=of/sub=benchmark/parameters=here",
			"example.com/m/b.BenchmarkB",
		},
		// 97 characters; the 53-character part of the benchmark name is
		// cut into pieces of 35.
		want:   []string{"a.BenchmarkAnExtremelyLongBenchmarkF\n…sub=benchmark/parameters=here"},
		prefix: "example.com/m",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, prefix := IDLabels(tt.ids)
			assert.Equal(t, tt.prefix, prefix)
			require.Len(t, got, len(tt.ids))
			for i, w := range tt.want {
				assert.Equal(t, w, got[i], "label %d", i)
			}
			for _, l := range got {
				lines := strings.Split(l, "\n")
				assert.LessOrEqual(t, len(lines), labelLines, "%q", l)
				for _, line := range lines {
					assert.LessOrEqual(t, utf8.RuneCountInString(line), labelLineRunes, "%q", l)
				}
			}
		})
	}
}

func TestFitLabel(t *testing.T) {
	tests := []struct {
		in           string
		width, lines int
		want         string
	}{
		{"short", 6, 2, "short"},
		{"…/storage.BenchmarkWriteBatch/size=1024/parallel=true", 36, 2, "…/storage.BenchmarkWriteBatch/\nsize=1024/parallel=true"},
		// 73 characters: size=1024 would fit on neither line.
		{"…/storage.BenchmarkWriteBatch0/size=1024/parallel=true/compression=snappy", 36, 2, "…/storage.BenchmarkWriteBatch0/\n…parallel=true/compression=snappy"},
		{"a.B/c", 36, 1, "a.B/c"},
		{"aaaa/bbbb/cc", 6, 2, "aaaa/\n…cc"},
		{"aaaa/bbbb/cc", 6, 3, "aaaa/\nbbbb/\ncc"},
		// A part longer than a line is cut into pieces of width-1.
		{"abcdefghijkl", 6, 2, "abcde\n…kl"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, FitLabel(tt.in, tt.width, tt.lines), "FitLabel(%q, %d, %d)", tt.in, tt.width, tt.lines)
	}
}

// longIDFigures are figures shaped like the suite report's (see
// report.Figures) for a suite of n picks with ids like real modules':
// 60–110 characters, nested packages, sub-benchmarks. lines is the
// coverage after each pick, one line per scenario besides the report's
// three; bars the picks' impacts, labelled by IDLabels.
func longIDFigures(n int, pkgs []string, sub string, scenarios ...string) (lines, bars Figure) {
	var ids []string
	var values []float64
	x, proj, over, imp := []float64{0}, []float64{0}, []float64{0}, []float64{0}
	for i := range n {
		ids = append(ids, fmt.Sprintf("%s.BenchmarkWriteBatch%d%s", pkgs[i%len(pkgs)], i, sub))
		values = append(values, 100*(0.02+0.9*float64((i*37)%n)/float64(n)))
		r := float64(i+1) / float64(n)
		x, proj, over, imp = append(x, float64(i+1)), append(proj, 80*r), append(over, 50*r), append(imp, 90*r)
	}
	lines = Figure{Name: "suite-coverage", Title: "Coverage of the application by the minimal suite", XLabel: "benchmarks in the suite", YLabel: "coverage (%)",
		Lines: []Series{{Label: "project-only", X: x, Y: proj}, {Label: "overall", X: x, Y: over}, {Label: "application CPU time", X: x, Y: imp}}}
	for _, sc := range scenarios {
		lines.Lines = append(lines.Lines, Series{Label: "project-only: " + sc, X: x, Y: make([]float64, len(x))})
	}
	return lines, barsOf(ids, values)
}

// bars returns the bar chart of longIDFigures.
func bars(_, b Figure) Figure { return b }

// barsOf is the bar chart of ids and values, labelled as report.Figures
// labels the suite's impacts.
func barsOf(ids []string, values []float64) Figure {
	b := &Bars{IDs: ids, Values: values}
	var prefix string
	b.Labels, prefix = IDLabels(ids)
	f := Figure{Name: "suite-impact", Title: "Attributed impact of the selected benchmarks", XLabel: "application CPU time covered (%)", Bars: b}
	if prefix != "" {
		f.Note = "benchmark ids relative to " + MiddleEllipsis(prefix, NoteRunes)
	}
	return f
}

var realPkgs = []string{
	"go.etcd.io/some/module/internal/storage",
	"go.etcd.io/some/module/server/etcdserver/api/v3rpc",
	"go.etcd.io/some/module/client/pkg/transport",
	"go.etcd.io/some/module/internal/storage/backend/bucket/index",
}

// TestBarsVisibleWithLongIDs is the regression test for the blank impact
// chart: with real ids the labels took the whole width, the data area had
// a negative width and no bar was drawn. For each case it checks the
// layout (the x axis runs forward, the data area is at least MinDataWidth
// wide and inside the canvas, every bar's rectangle is inside the data
// area) and then the drawn PNG (each bar's colour fills its rectangle).
func TestBarsVisibleWithLongIDs(t *testing.T) {
	tests := []struct {
		name       string
		fig        Figure
		minIDRunes int
	}{
		{"40+ character ids", bars(longIDFigures(6, []string{"example.com/tinytsdb/storage", "example.com/tinytsdb/query"}, "")), 40},
		{"100+ character ids", bars(longIDFigures(8, realPkgs, "/size=1024/parallel=true/compression=snappy")), 100},
		{"50 bars of 60-110 character ids", bars(longIDFigures(50, realPkgs, "/size=1024/parallel=true")), 60},
		{"one long id", bars(longIDFigures(1, realPkgs[3:], "/size=1024/parallel=true/compression=snappy")), 100},
		{"ids without import paths", barsOf([]string{"query__BenchmarkQuery", "storage__BenchmarkAddRows"}, []float64{70, 30}), 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fig := tt.fig
			for _, id := range fig.Bars.IDs {
				require.GreaterOrEqual(t, utf8.RuneCountInString(id), tt.minIDRunes, "test ids are as long as claimed")
			}

			fr, err := fig.newFrame()
			require.NoError(t, err)
			w, h := fr.size()
			canvas := vg.Rectangle{Max: vg.Point{X: w, Y: h}}
			l := fr.layout(draw.NewCanvas(&recorder.Canvas{}, w, h))
			assert.Less(t, fr.plot.X.Min, fr.plot.X.Max, "x axis runs forward")
			assert.GreaterOrEqual(t, float64(l.Data.Max.X-l.Data.Min.X), float64(MinDataWidth)-1e-6, "data area width")
			assert.True(t, inside(l.Data, canvas), "data area %v inside canvas %v", l.Data, canvas)
			rects := barRects(fr, l)
			require.Len(t, rects, len(fig.Bars.Values))
			for i, r := range rects {
				assert.True(t, inside(r, l.Data), "bar %d %v inside data area %v", i+1, r, l.Data)
				assert.Greater(t, float64(r.Max.X-r.Min.X), 1.0, "bar %d has a visible length", i+1)
			}

			b, err := fig.PNG()
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(b))
			require.NoError(t, err)
			if *figuresDir != "" {
				name := strings.NewReplacer(" ", "-", "+", "").Replace(tt.name) + ".png"
				require.NoError(t, os.WriteFile(filepath.Join(*figuresDir, name), b, 0o644))
			}
			assert.Equal(t, px(w), img.Bounds().Dx(), "PNG width")
			assert.Equal(t, px(h), img.Bounds().Dy(), "PNG height")
			barColor := color.RGBAModel.Convert(plotutil.Color(0))
			for i, r := range rects {
				filled, total := barPixels(img, r, h, barColor)
				assert.Greater(t, total, 0, "bar %d covers pixels", i+1)
				assert.GreaterOrEqual(t, float64(filled), 0.9*float64(total), "bar %d: %d of %d pixels inside its rectangle have the bar colour", i+1, filled, total)
			}
		})
	}
}

// TestLegendOutsideData checks that the line plots' legends sit in their
// own column, right of the data area.
func TestLegendOutsideData(t *testing.T) {
	lines, _ := longIDFigures(12, realPkgs, "", "ingest", "a-scenario-with-a-rather-long-name-indeed-yes")
	for _, f := range []Figure{lines} {
		t.Run(f.Name, func(t *testing.T) {
			fr, err := f.newFrame()
			require.NoError(t, err)
			w, h := fr.size()
			l := fr.layout(draw.NewCanvas(&recorder.Canvas{}, w, h))
			require.NotNil(t, fr.legend)
			leg := fr.legend.Rectangle(draw.Canvas{Rectangle: l.Legend})
			assert.GreaterOrEqual(t, float64(leg.Min.X), float64(l.Plot.Max.X), "legend right of the plot")
			assert.LessOrEqual(t, float64(leg.Max.X), float64(w)+1e-6, "legend inside the canvas")
			assert.GreaterOrEqual(t, float64(l.Data.Max.X-l.Data.Min.X), float64(MinDataWidth), "data area width")
		})
	}
}

func TestFigureRejectsBadBars(t *testing.T) {
	for _, b := range []*Bars{{}, {Labels: []string{"a", "b"}, Values: []float64{1}}} {
		_, err := Figure{Name: "x", Bars: b}.PNG()
		assert.ErrorContains(t, err, fmt.Sprintf("report: figure x: Bars has %d labels and %d values", len(b.Labels), len(b.Values)))
	}
}

// TestOneSansFont: every text of every figure is Liberation Sans, with
// metric-compatible fallbacks in SVG.
func TestOneSansFont(t *testing.T) {
	lines, bars := longIDFigures(3, realPkgs, "")
	for _, f := range []Figure{lines, bars} {
		svg, err := f.SVG()
		require.NoError(t, err)
		families := map[string]int{}
		for _, m := range regexp.MustCompile(`font-family:[^;"]*`).FindAllString(string(svg), -1) {
			families[m]++
		}
		assert.Len(t, families, 1, "%s: %v", f.Name, families)
		assert.Positive(t, families["font-family:'Liberation Sans',Arial,Helvetica,sans-serif"], "%s: %v", f.Name, families)
	}
}

func TestPercentTicks(t *testing.T) {
	var labels []string
	for _, tk := range (percentTicks{}).Ticks(0, 100) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, []string{"0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"}, labels)
}

// barRects returns each bar's rectangle as BarChart.Plot draws it, first
// bar (drawn on top) first.
func barRects(fr *frame, l layout) []vg.Rectangle {
	dc := draw.Canvas{Rectangle: l.Data}
	trX, trY := fr.plot.Transforms(&dc)
	k := len(fr.bars.Values)
	rects := make([]vg.Rectangle, k)
	for j, v := range fr.bars.Values {
		y := trY(float64(j))
		rects[k-1-j] = vg.Rectangle{
			Min: vg.Point{X: trX(0), Y: y - fr.bars.Width/2},
			Max: vg.Point{X: trX(v), Y: y + fr.bars.Width/2},
		}
	}
	return rects
}

func inside(r, outer vg.Rectangle) bool {
	const eps = 1e-6
	return r.Min.X >= outer.Min.X-eps && r.Min.Y >= outer.Min.Y-eps && r.Max.X <= outer.Max.X+eps && r.Max.Y <= outer.Max.Y+eps
}

// px converts a length to pixels of a 96 dpi image.
func px(l vg.Length) int { return int(l.Dots(96) + 0.5) }

// barPixels counts the pixels of img strictly inside r (a rectangle in
// points, origin bottom left, on a canvas h high) and how many of them
// have the colour c. A rectangle outside the image counts no pixels (NaN
// coordinates, from a data area of negative width, too).
func barPixels(img image.Image, r vg.Rectangle, h vg.Length, c color.Color) (filled, total int) {
	b := img.Bounds()
	clamp := func(v float64, lo, hi int) int { return int(max(float64(lo), min(float64(hi), v))) }
	x0, x1 := clamp(r.Min.X.Dots(96)+1, b.Min.X, b.Max.X), clamp(r.Max.X.Dots(96)-1, b.Min.X, b.Max.X-1)
	y0, y1 := clamp((h-r.Max.Y).Dots(96)+1, b.Min.Y, b.Max.Y), clamp((h-r.Min.Y).Dots(96)-1, b.Min.Y, b.Max.Y-1)
	want := color.RGBAModel.Convert(c)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			total++
			if color.RGBAModel.Convert(img.At(x, y)) == want {
				filled++
			}
		}
	}
	return filled, total
}
