package report

import (
	"bytes"
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/mbopt/mbopt/detect"
	"github.com/mbopt/mbopt/history"
	"github.com/mbopt/mbopt/internal/textutil"
)

// titleRunes bounds a history figure's title: a long benchmark id keeps
// its start and end with "…" between (the text and JSON give it whole).
const titleRunes = 70

// machineRunes bounds the machine's description in a figure's note.
const machineRunes = 24

// Colours of the history figures.
var (
	seriesColor    = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	bandColor      = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x40}
	thresholdColor = color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}
	definiteColor  = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	potentialColor = color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
)

// newPlotFrame returns a frame for a line plot with the report's fonts
// and a legend column, like the figures of [Figures].
func newPlotFrame(title, note, xLabel, yLabel string) *frame {
	p := plot.New()
	fr := &frame{fig: Figure{Title: middleEllipsis(title, titleRunes), Note: middleEllipsis(note, noteRunes)}, plot: p, title: p.Title.TextStyle}
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
func (fr *frame) svg() ([]byte, error) {
	w, h := fr.size()
	cw, err := draw.NewFormattedCanvas(w, h, "svg")
	if err != nil {
		return nil, err
	}
	fr.draw(draw.New(cw))
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(buf.Bytes(), []byte(svgFont), []byte(svgFontFallback)), nil
}

// HistorySVG draws s in the style of the study's Figures 5, 6, 8 and 9:
// the change against the baseline per commit (in %) with its confidence
// interval as a band, the jump threshold around the previous commit as
// dashed lines (a point outside them is a jump), and the detections as
// markers: triangles for jumps, diamond outlines for trends, squares for
// fixed-value bounds; red when definite, orange when potential.
// baseline is the baseline's commit, named in the note.
func HistorySVG(s HistorySeries, baseline string) ([]byte, error) {
	note := fmt.Sprintf("%s vs %s · initial threshold %s (%s) · %s", s.Unit, short(baseline), pct(s.InitialThreshold), s.ThresholdSource, middleEllipsis(s.Machine, machineRunes))
	fr := newPlotFrame(s.ID, note, "commit", "change vs baseline (%)")
	p := fr.plot
	n := len(s.Points)
	if n == 0 {
		return nil, fmt.Errorf("report: %s: no points to plot", s.ID)
	}
	line, band := make(plotter.XYs, n), make(plotter.XYs, 0, 2*n)
	for i, pt := range s.Points {
		line[i] = plotter.XY{X: float64(i), Y: 100 * pt.Change}
		band = append(band, plotter.XY{X: float64(i), Y: 100 * pt.CI.High})
	}
	for i := n - 1; i >= 0; i-- {
		band = append(band, plotter.XY{X: float64(i), Y: 100 * s.Points[i].CI.Low})
	}
	if n == 1 {
		// A band needs width: draw the lone interval as a thin box.
		pt := s.Points[0]
		band = plotter.XYs{{X: -0.05, Y: 100 * pt.CI.High}, {X: 0.05, Y: 100 * pt.CI.High}, {X: 0.05, Y: 100 * pt.CI.Low}, {X: -0.05, Y: 100 * pt.CI.Low}}
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", s.ID, err)
	}
	poly.Color = bandColor
	poly.LineStyle.Width = 0
	p.Add(poly)
	fr.legend.Add("99% CI", poly)

	// The jump threshold of point i: a short dash above and below it at
	// the previous value ± the threshold, the band a jump must leave.
	for i := 1; i < n; i++ {
		prev, t := 1+s.Points[i-1].Change, s.Points[i].Threshold
		for _, y := range []float64{100 * (prev*(1+t) - 1), 100 * (prev*(1-t) - 1)} {
			l, err := plotter.NewLine(plotter.XYs{{X: float64(i) - 0.35, Y: y}, {X: float64(i) + 0.35, Y: y}})
			if err != nil {
				return nil, fmt.Errorf("report: %s: %w", s.ID, err)
			}
			l.Color = thresholdColor
			l.Width = vg.Points(1)
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
			p.Add(l)
			if i == 1 && y > 100*(prev-1) {
				fr.legend.Add("jump threshold", l)
			}
		}
	}

	l, pts, err := plotter.NewLinePoints(line)
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", s.ID, err)
	}
	l.Color, pts.Color = seriesColor, seriesColor
	l.Width = vg.Points(1.5)
	pts.Shape = draw.CircleGlyph{}
	pts.Radius = vg.Points(2)
	p.Add(l, pts)
	fr.legend.Add("change", l, pts)

	type key struct {
		kind     detect.Kind
		definite bool
		up       bool
	}
	groups := map[key]plotter.XYs{}
	for _, det := range s.Detections {
		k := key{det.Kind, det.Definite, det.Direction == detect.Up}
		groups[k] = append(groups[k], plotter.XY{X: float64(det.Index), Y: 100 * s.Points[det.Index].Change})
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
			return nil, fmt.Errorf("report: %s: %w", s.ID, err)
		}
		sc.GlyphStyle = detectionGlyph(k.kind, k.definite, k.up)
		p.Add(sc)
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
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.X.Tick.Marker = integerTicks{}
	return fr.svg()
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

// InstabilitySVG draws the distribution of the A/A instabilities in
// insts as a cumulative distribution function, the study's Figure 7: for
// each instability x (in %), the share of A/A results at most x. One line
// per unit; the calibration's suite threshold, when positive, is a dashed
// vertical line, and the calibration quantile a dashed horizontal one.
func InstabilitySVG(insts []history.Instability, cal *history.Calibration) ([]byte, error) {
	byUnit := map[string][]float64{}
	var units []string
	total := 0
	for _, in := range insts {
		if _, ok := byUnit[in.Unit]; !ok {
			units = append(units, in.Unit)
		}
		byUnit[in.Unit] = append(byUnit[in.Unit], in.Widths...)
		total += len(in.Widths)
	}
	if total == 0 {
		return nil, fmt.Errorf("report: no A/A instabilities to plot")
	}
	slices.Sort(units)
	fr := newPlotFrame("Instability of the benchmarks in A/A comparisons",
		fmt.Sprintf("%s of %s; instability = width of the 99%% CI", textutil.Plural(total, "A/A result"), textutil.Plural(len(insts), "benchmark")),
		"instability (%)", "A/A results at most this unstable (%)")
	p := fr.plot
	maxX := 0.0
	for i, u := range units {
		ws := slices.Clone(byUnit[u])
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
		fr.legend.Add(fmt.Sprintf("%s (%d)", u, len(ws)), l)
	}
	if cal != nil && cal.Suite > 0 {
		maxX = max(maxX, 100*cal.Suite)
		v, err := plotter.NewLine(plotter.XYs{{X: 100 * cal.Suite, Y: 0}, {X: 100 * cal.Suite, Y: 100}})
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		v.Color = thresholdColor
		v.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
		p.Add(v)
		fr.legend.Add(fmt.Sprintf("suite threshold %s", pct(cal.Suite)), v)
		q := 100 * cal.Options.Quantile
		h, err := plotter.NewLine(plotter.XYs{{X: 0, Y: q}, {X: maxX * 1.05, Y: q}})
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		h.Color = thresholdColor
		h.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		p.Add(h)
		fr.legend.Add(fmt.Sprintf("%.0f%% of the results", q), h)
	}
	p.X.Min, p.X.Max = 0, max(maxX*1.05, 1)
	p.Y.Min, p.Y.Max = 0, 100
	p.Y.Tick.Marker = percentTicks{}
	return fr.svg()
}
