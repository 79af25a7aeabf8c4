package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/mbopt/mbopt/compare/detect"
)

// titleRunes bounds the title of a line figure ([HistoryFigure],
// [CDFFigure]): a long benchmark id keeps its start and end with "…"
// between (the text and JSON give it whole).
const titleRunes = 70

// Colours of the history figures.
var (
	seriesColor    = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	bandColor      = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x40}
	thresholdColor = color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}
	definiteColor  = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	potentialColor = color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
)

// newPlotFrame returns a frame for a line plot with the figures' fonts
// and a legend column, like a line [Figure]'s.
func newPlotFrame(title, note, xLabel, yLabel string) *frame {
	p := plot.New()
	fr := &frame{fig: Figure{Title: MiddleEllipsis(title, titleRunes), Note: MiddleEllipsis(note, NoteRunes)}, plot: p, title: p.Title.TextStyle}
	sans(&fr.title, titleSize)
	fr.note = fr.title
	sans(&fr.note, noteSize)
	fr.note.Color = color.Gray{Y: 0x55}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		sans(&a.Label.TextStyle, labelSize)
		sans(&a.Tick.Label, tickSize)
	}
	p.BackgroundColor = color.White
	p.Add(plotter.NewGrid())
	leg := plot.NewLegend()
	sans(&leg.TextStyle, legendSize)
	leg.Top, leg.Left = true, true
	leg.Padding = vg.Points(2)
	fr.legend = &leg
	return fr
}

// svg draws fr as an SVG document.
func (fr *frame) svg() ([]byte, error) { return fr.encode("svg") }

// encode draws fr in format, "png" or "svg"; an SVG names its font with
// the fallbacks (svgFontFallback).
func (fr *frame) encode(format string) ([]byte, error) {
	w, h := fr.size()
	b, err := render(w, h, format, fr.draw)
	if err != nil || format != "svg" {
		return b, err
	}
	return bytes.ReplaceAll(b, []byte(svgFont), []byte(svgFontFallback)), nil
}

// render returns a w × h image in format, "png" or "svg", that paint drew.
func render(w, h vg.Length, format string, paint func(draw.Canvas)) ([]byte, error) {
	cw, err := draw.NewFormattedCanvas(w, h, format)
	if err != nil {
		return nil, err
	}
	paint(draw.New(cw))
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// A HistoryFigure is one benchmark's history in the style of the study's
// Figures 5, 6, 8 and 9: the change against the baseline per commit (in
// %) with its confidence interval as a band, the jump threshold around the
// previous commit as dashed lines (a point outside them is a jump), and
// the detections as markers: triangles for jumps, diamond outlines for
// trends, rings for E-divisive change points, squares for fixed-value
// bounds; red when definite, orange when potential.
type HistoryFigure struct {
	// Title is drawn above the plot, shortened to 70 characters with
	// [MiddleEllipsis].
	Title string
	// Note is drawn under the title, shortened to [NoteRunes].
	Note string
	// Points are the commits, in order; at least one.
	Points []HistoryPoint
	// Detections mark points (by Index) with their kind, direction and
	// certainty.
	Detections []detect.Detection
}

// A HistoryPoint is one commit of a [HistoryFigure].
type HistoryPoint struct {
	// Point is the change against the baseline (0.05 is +5%) and its
	// confidence interval, as a series holds it (history.Point embeds
	// it).
	detect.Point
	// Threshold is the dynamic threshold the point was judged against.
	Threshold float64
	// Label names the commit under the x axis, such as "0f98b1f" and its
	// date on a second line; empty labels the axis with the commit's
	// index.
	Label string
}

// SVG draws the figure as an SVG document (Liberation Sans with metric
// fallbacks, like [Figure.SVG]). It fails on a figure without points.
func (f *HistoryFigure) SVG() ([]byte, error) {
	fr := newPlotFrame(f.Title, f.Note, "commit", "change vs baseline (%)")
	labels := make([]string, len(f.Points))
	for i, pt := range f.Points {
		labels[i] = pt.Label
	}
	p := fr.plot
	n := len(f.Points)
	if n == 0 {
		return nil, fmt.Errorf("report: %s: no points to plot", f.Title)
	}
	// Drawn in this order: each layer lies on top of the ones before.
	for _, add := range []func(*frame) error{f.addBand, f.addThresholds, f.addChange, f.addDetections} {
		if err := add(fr); err != nil {
			return nil, fmt.Errorf("report: %s: %w", f.Title, err)
		}
	}
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.X.Tick.Marker = commitTicks(labels)
	return fr.svg()
}

// addBand draws the changes' confidence intervals as a band (a thin box
// for a lone point) and lists it in the legend.
func (f *HistoryFigure) addBand(fr *frame) error {
	n := len(f.Points)
	band := make(plotter.XYs, 0, 2*n)
	for i, pt := range f.Points {
		band = append(band, plotter.XY{X: float64(i), Y: 100 * pt.CI.High})
	}
	for i := n - 1; i >= 0; i-- {
		band = append(band, plotter.XY{X: float64(i), Y: 100 * f.Points[i].CI.Low})
	}
	if n == 1 {
		// A band needs width: draw the lone interval as a thin box.
		pt := f.Points[0]
		band = plotter.XYs{{X: -0.05, Y: 100 * pt.CI.High}, {X: 0.05, Y: 100 * pt.CI.High}, {X: 0.05, Y: 100 * pt.CI.Low}, {X: -0.05, Y: 100 * pt.CI.Low}}
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return err
	}
	poly.Color = bandColor
	poly.LineStyle.Width = 0
	fr.plot.Add(poly)
	fr.legend.Add("99% CI", poly)
	return nil
}

// addThresholds draws the jump threshold of each point after the first:
// a short dash above and below it at the previous value ± the threshold,
// the band a jump must leave.
func (f *HistoryFigure) addThresholds(fr *frame) error {
	for i := 1; i < len(f.Points); i++ {
		prev, t := 1+f.Points[i-1].Change, f.Points[i].Threshold
		for _, y := range []float64{100 * (prev*(1+t) - 1), 100 * (prev*(1-t) - 1)} {
			l, err := plotter.NewLine(plotter.XYs{{X: float64(i) - 0.35, Y: y}, {X: float64(i) + 0.35, Y: y}})
			if err != nil {
				return err
			}
			l.Color = thresholdColor
			l.Width = vg.Points(1)
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
			fr.plot.Add(l)
			if i == 1 && y > 100*(prev-1) {
				fr.legend.Add("jump threshold", l)
			}
		}
	}
	return nil
}

// addChange draws the changes as a line with a point per commit.
func (f *HistoryFigure) addChange(fr *frame) error {
	line := make(plotter.XYs, len(f.Points))
	for i, pt := range f.Points {
		line[i] = plotter.XY{X: float64(i), Y: 100 * pt.Change}
	}
	l, pts, err := plotter.NewLinePoints(line)
	if err != nil {
		return err
	}
	l.Color, pts.Color = seriesColor, seriesColor
	l.Width = vg.Points(1.5)
	pts.Shape = draw.CircleGlyph{}
	pts.Radius = vg.Points(2)
	fr.plot.Add(l, pts)
	fr.legend.Add("change", l, pts)
	return nil
}

// addDetections marks the detections, one glyph per kind, certainty and
// direction, each group in the legend.
func (f *HistoryFigure) addDetections(fr *frame) error {
	type key struct {
		kind     detect.Kind
		definite bool
		up       bool
	}
	groups := map[key]plotter.XYs{}
	for _, det := range f.Detections {
		k := key{det.Kind, det.Definite, det.Direction == detect.Up}
		groups[k] = append(groups[k], plotter.XY{X: float64(det.Index), Y: 100 * f.Points[det.Index].Change})
	}
	// Draw and list the groups in a fixed order: definite before
	// potential, then trend, jump, fixed, then up before down.
	var keys []key
	for k := range groups {
		keys = append(keys, k)
	}
	// Trends (large outlines) first, so the jumps' filled marks lie on
	// top of them at the same commit.
	rank := map[detect.Kind]int{detect.Trend: 0, detect.EDivisive: 1, detect.Jump: 2, detect.Fixed: 3}
	slices.SortFunc(keys, func(a, b key) int {
		switch {
		case a.definite != b.definite:
			return boolRank(b.definite) - boolRank(a.definite)
		case a.kind != b.kind:
			return rank[a.kind] - rank[b.kind]
		}
		return boolRank(b.up) - boolRank(a.up)
	})
	for _, k := range keys {
		sc, err := plotter.NewScatter(groups[k])
		if err != nil {
			return err
		}
		sc.GlyphStyle = detectionGlyph(k.kind, k.definite, k.up)
		fr.plot.Add(sc)
		word := "potential"
		if k.definite {
			word = "definite"
		}
		dir := "down"
		if k.up {
			dir = "up"
		}
		fr.legend.Add(fmt.Sprintf("%s %s %s", word, k.kind, dir), sc)
	}
	return nil
}

// commitTicks marks every commit of a history figure and labels at most
// five of them (a label with a date is wide), evenly, the last always, with their labels (their index
// where a label is empty).
type commitTicks []string

func (c commitTicks) Ticks(lo, hi float64) []plot.Tick {
	n := len(c)
	step := max(1, (n+4)/5)
	var ts []plot.Tick
	for i := range n {
		if float64(i) < lo || float64(i) > hi {
			continue
		}
		t := plot.Tick{Value: float64(i)}
		// Every step-th commit, unless too close to the last, which is
		// always labelled.
		if i == n-1 || i%step == 0 && n-1-i >= step {
			t.Label = c[i]
			if t.Label == "" {
				t.Label = fmt.Sprint(i)
			}
		}
		ts = append(ts, t)
	}
	return ts
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// detectionGlyph is the marker of a detection: a triangle pointing its way
// for a jump, a large diamond outline around the point for a trend, a
// large ring for an E-divisive change point, a square for a fixed-value
// bound; red when definite, orange when
// potential, and a potential jump is an outline.
func detectionGlyph(kind detect.Kind, definite, up bool) draw.GlyphStyle {
	g := draw.GlyphStyle{Radius: vg.Points(5), Color: potentialColor}
	if definite {
		g.Color = definiteColor
	}
	switch kind {
	case detect.Jump:
		g.Shape = triangle{up: up, fill: definite}
	case detect.Trend:
		g.Shape = diamond{}
		g.Radius = vg.Points(7)
	case detect.EDivisive:
		g.Shape = draw.RingGlyph{}
		g.Radius = vg.Points(8)
	default:
		g.Shape = draw.SquareGlyph{}
		if definite {
			g.Shape = draw.BoxGlyph{}
		}
	}
	return g
}

// triangle is a triangle pointing up or down, filled or an outline.
type triangle struct{ up, fill bool }

// DrawGlyph implements draw.GlyphDrawer.
func (tr triangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.5)})
	r := sty.Radius
	dir := vg.Length(1)
	if !tr.up {
		dir = -1
	}
	var p vg.Path
	p.Move(vg.Point{X: pt.X - r, Y: pt.Y - dir*r*0.6})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - dir*r*0.6})
	p.Line(vg.Point{X: pt.X, Y: pt.Y + dir*r})
	p.Close()
	if tr.fill {
		c.SetColor(sty.Color)
		c.Fill(p)
		return
	}
	c.Stroke(p)
}

// diamond is a diamond outline.
type diamond struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (diamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.5)})
	r := sty.Radius
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.Stroke(p)
}

// A CDFFigure draws empirical cumulative distribution functions, the
// study's Figure 7: for each value x (in %), the share of a line's values
// at most x, one step per value. A vertical dashed line can mark a
// threshold and a horizontal dotted one a quantile.
type CDFFigure struct {
	// Title is drawn above the plot, shortened to 70 characters.
	Title string
	// Note is drawn under the title, shortened to [NoteRunes].
	Note string
	// XLabel and YLabel label the axes.
	XLabel, YLabel string
	// Lines are the distributions, drawn and listed in the legend in
	// order; at least one value in all.
	Lines []CDFLine
	// Threshold, when positive, is drawn as a dashed vertical line at
	// 100 × Threshold %, and Quantile (0..1) as a dotted horizontal line
	// at 100 × Quantile %; with no threshold, neither is drawn.
	Threshold, Quantile float64
	// ThresholdLabel and QuantileLabel name the two lines in the legend.
	ThresholdLabel, QuantileLabel string
}

// A CDFLine is one distribution of a [CDFFigure].
type CDFLine struct {
	// Label names the line in the legend.
	Label string
	// Values are its values (0.05 is 5%), in any order.
	Values []float64
}

// SVG draws the figure as an SVG document (Liberation Sans with metric
// fallbacks, like [Figure.SVG]).
func (f *CDFFigure) SVG() ([]byte, error) {
	total := 0
	for _, l := range f.Lines {
		total += len(l.Values)
	}
	if total == 0 {
		return nil, fmt.Errorf("report: %s: no values to plot", f.Title)
	}
	fr := newPlotFrame(f.Title, f.Note, f.XLabel, f.YLabel)
	p := fr.plot
	maxX := 0.0
	for i, line := range f.Lines {
		ws := slices.Clone(line.Values)
		slices.Sort(ws)
		xys := plotter.XYs{{X: 0, Y: 0}}
		for j, w := range ws {
			xys = append(xys, plotter.XY{X: 100 * w, Y: xys[len(xys)-1].Y}, plotter.XY{X: 100 * w, Y: 100 * float64(j+1) / float64(len(ws))})
			maxX = max(maxX, 100*w)
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		l.Color = []color.Color{seriesColor, potentialColor, definiteColor, thresholdColor}[i%4]
		l.Width = vg.Points(1.5)
		p.Add(l)
		fr.legend.Add(line.Label, l)
	}
	// mark draws a line through xys in the threshold colour, dashes of
	// dash points, with its legend entry.
	mark := func(xys plotter.XYs, dash float64, label string) error {
		l, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		l.Color = thresholdColor
		l.Dashes = []vg.Length{vg.Points(dash), vg.Points(2)}
		p.Add(l)
		fr.legend.Add(label, l)
		return nil
	}
	if f.Threshold > 0 {
		maxX = max(maxX, 100*f.Threshold)
		if err := mark(plotter.XYs{{X: 100 * f.Threshold, Y: 0}, {X: 100 * f.Threshold, Y: 100}}, 3, f.ThresholdLabel); err != nil {
			return nil, err
		}
		q := 100 * f.Quantile
		if err := mark(plotter.XYs{{X: 0, Y: q}, {X: maxX * 1.05, Y: q}}, 1, f.QuantileLabel); err != nil {
			return nil, err
		}
	}
	p.X.Min, p.X.Max = 0, max(maxX*1.05, 1)
	p.Y.Min, p.Y.Max = 0, 100
	p.Y.Tick.Marker = percentTicks{}
	return fr.svg()
}
