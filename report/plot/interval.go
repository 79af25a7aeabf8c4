package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/mbopt/mbopt/compare/benchstats"
)

// An IntervalRow is one row of an interval figure ([IntervalFigure]): a
// relative change with its confidence interval and its verdict.
type IntervalRow struct {
	// Label names the row on the y axis.
	Label string
	// Estimate is the change and its interval.
	Estimate benchstats.Estimate
	// Verdict colours the row (see [IntervalFigure]).
	Verdict benchstats.Verdict
}

// An IntervalFigure shows relative changes against a threshold band, the
// way the TCC paper's Figure 3 explains definite and potential changes:
// one row per change, first row on top, its confidence interval as a
// horizontal bar with the median change as a dot; the band [−Threshold,
// +Threshold] shaded, its edges dashed and zero drawn solid. Regressions
// are red, improvements green, unchanged grey; definite changes are drawn
// thick and solid, potential ones dashed.
type IntervalFigure struct {
	// Title is drawn above the plot.
	Title string
	// XLabel labels the x axis (relative change, in percent).
	XLabel string
	// Threshold is the band's half width as a relative change (0.01).
	Threshold float64
	// Rows are the changes, drawn top to bottom.
	Rows []IntervalRow
}

// verdictColors colour an interval by its verdict.
var verdictColors = map[benchstats.Verdict]color.Color{
	benchstats.DefiniteRegression:   color.RGBA{R: 0xc0, G: 0x1c, B: 0x28, A: 0xff},
	benchstats.PotentialRegression:  color.RGBA{R: 0xe6, G: 0x61, B: 0x00, A: 0xff},
	benchstats.Unchanged:            color.Gray{Y: 0x70},
	benchstats.PotentialImprovement: color.RGBA{R: 0x2d, G: 0xa4, B: 0x4e, A: 0xff},
	benchstats.DefiniteImprovement:  color.RGBA{R: 0x11, G: 0x63, B: 0x29, A: 0xff},
}

// rowHeight is the height of one row of an interval figure.
const rowHeight = 0.75 * vg.Centimeter

// SVG draws the figure as an SVG document (Liberation Sans with metric
// fallbacks, like [Figure.SVG]).
func (f *IntervalFigure) SVG() ([]byte, error) {
	b, err := f.draw("svg")
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(b, []byte(svgFont), []byte(svgFontFallback)), nil
}

// PNG draws the figure as a PNG image at 96 dpi.
func (f *IntervalFigure) PNG() ([]byte, error) { return f.draw("png") }

// Size returns the drawn size: 13 cm for the data plus the width of the
// longest row label, at least 18 cm wide; 4 cm plus 0.75 cm per row (a
// row label may have two lines) high.
func (f *IntervalFigure) Size() (w, h vg.Length) {
	var sty text.Style
	sty.Handler = plot.DefaultTextHandler
	sans(&sty, tickSize)
	var labels vg.Length
	for _, r := range f.Rows {
		labels = max(labels, sty.Width(r.Label))
	}
	return max(18*vg.Centimeter, labels+13*vg.Centimeter), 4*vg.Centimeter + vg.Length(len(f.Rows))*rowHeight
}

// newPlot builds the plot. It fails without rows and on values that
// cannot be drawn (NaN or infinite).
func (f *IntervalFigure) newPlot() (*plot.Plot, error) {
	if len(f.Rows) == 0 {
		return nil, fmt.Errorf("report: interval figure %q has no rows", f.Title)
	}
	t := 100 * math.Abs(f.Threshold)
	lo, hi := -3*t, 3*t
	for _, r := range f.Rows {
		e := r.Estimate
		for _, v := range []float64{e.Change, e.CI.Low, e.CI.High} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("report: interval figure %q: row %q has the value %v, which cannot be drawn", f.Title, r.Label, v)
			}
		}
		lo, hi = min(lo, 100*e.CI.Low, 100*e.Change), max(hi, 100*e.CI.High, 100*e.Change)
	}
	pad := (hi - lo) * 0.05
	lo, hi = lo-pad, hi+pad

	p := plot.New()
	p.BackgroundColor = color.White
	p.Title.Text = f.Title
	sans(&p.Title.TextStyle, titleSize)
	p.X.Label.Text = f.XLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		sans(&a.Label.TextStyle, labelSize)
		sans(&a.Tick.Label, tickSize)
	}
	k := len(f.Rows)
	yOf := func(i int) float64 { return float64(k - 1 - i) } // first row on top

	band, err := plotter.NewPolygon(plotter.XYs{{X: -t, Y: -0.5}, {X: t, Y: -0.5}, {X: t, Y: float64(k) - 0.5}, {X: -t, Y: float64(k) - 0.5}})
	if err != nil {
		return nil, err
	}
	band.Color = color.Gray{Y: 0xe8}
	band.LineStyle.Width = 0
	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	p.Add(band, grid)
	for _, x := range []float64{-t, 0, t} {
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: -0.5}, {X: x, Y: float64(k) - 0.5}})
		if err != nil {
			return nil, err
		}
		l.Color = color.Gray{Y: 0x40}
		l.Width = vg.Points(0.75)
		if x != 0 {
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
		}
		p.Add(l)
	}

	labels := make([]string, k)
	for i, r := range f.Rows {
		y := yOf(i)
		labels[k-1-i] = r.Label
		c := verdictColors[r.Verdict]
		if c == nil {
			c = color.Black
		}
		e := r.Estimate
		bar, err := plotter.NewLine(plotter.XYs{{X: 100 * e.CI.Low, Y: y}, {X: 100 * e.CI.High, Y: y}})
		if err != nil {
			return nil, err
		}
		bar.Color = c
		bar.Width = vg.Points(5)
		switch {
		case r.Verdict == benchstats.Unchanged:
			bar.Width = vg.Points(2.5)
		case !r.Verdict.Definite():
			bar.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		caps, err := glyphs(plotter.XYs{{X: 100 * e.CI.Low, Y: y}, {X: 100 * e.CI.High, Y: y}}, draw.BoxGlyph{}, c, 1.5)
		if err != nil {
			return nil, err
		}
		// The median change: a black ring filled white, visible on any bar.
		median := plotter.XYs{{X: 100 * e.Change, Y: y}}
		fill, err := glyphs(median, draw.CircleGlyph{}, color.White, 3.5)
		if err != nil {
			return nil, err
		}
		ring, err := glyphs(median, draw.RingGlyph{}, color.Black, 3.5)
		if err != nil {
			return nil, err
		}
		p.Add(bar, caps, fill, ring)
	}
	p.NominalY(labels...)
	p.Y.Min, p.Y.Max = -0.5, float64(k)-0.5
	p.X.Min, p.X.Max = lo, hi
	p.X.Tick.Marker = changeTicks{}
	return p, nil
}

// glyphs returns the points xys drawn as glyphs of the shape, in colour c,
// radius points wide.
func glyphs(xys plotter.XYs, shape draw.GlyphDrawer, c color.Color, radius float64) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	s.Shape, s.Color, s.Radius = shape, c, vg.Points(radius)
	return s, nil
}

func (f *IntervalFigure) draw(format string) ([]byte, error) {
	p, err := f.newPlot()
	if err != nil {
		return nil, err
	}
	w, h := f.Size()
	b, err := render(w, h, format, func(dc draw.Canvas) {
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		p.Draw(draw.Crop(dc, margin, -margin, margin, -margin))
	})
	if err != nil {
		return nil, fmt.Errorf("report: interval figure: %w", err)
	}
	return b, nil
}

// changeTicks labels a relative-change axis in percent, signed ("+4%"),
// every 1, 2 or 5 times a power of ten, the smallest step that gives at
// most eleven labels; zero is always a tick when in range.
type changeTicks struct{}

func (changeTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return nil
	}
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/8)))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(m*step) <= 10 {
			step *= m
			break
		}
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ts []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi+step*1e-9; i++ {
		v := i * step
		label := fmt.Sprintf("%+.*f%%", decimals, v)
		if i == 0 {
			v, label = 0, "0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}

var _ plot.Ticker = changeTicks{}
