// Package plot draws mbopt's figures with gonum.org/v1/plot, its only
// importer in mbopt: the data of a figure ([Figure], [IntervalFigure],
// [HistoryFigure], [CDFFigure]) is built by the document packages
// (report, report/verdict, report/trend) and drawn here, as PNG or SVG,
// in one style: Liberation Sans everywhere, legends beside the data, never
// over it, benchmark ids shortened by the rules of [IDLabels].
package plot

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/mbopt/mbopt/internal/benchname"
)

// Figure is the data behind one plot of the report, independent of how
// it is drawn: tests compare this data, and [Figure.PNG] and [Figure.SVG]
// draw it with gonum.org/v1/plot.
type Figure struct {
	// Name is the file stem, e.g. "suite-coverage".
	Name string `json:"name"`
	// Title names the figure.
	Title string `json:"title"`
	// Caption says what to read from it.
	Caption string `json:"caption"`
	// Note is a short line drawn under the title, e.g. the import path
	// the labels are relative to; empty for none.
	Note string `json:"note,omitempty"`
	// XLabel is the x axis' label.
	XLabel string `json:"x_label"`
	// YLabel is the y axis' label.
	YLabel string `json:"y_label"`
	// Lines are the series of a line plot; nil (omitted) for a bar chart.
	Lines []Series `json:"lines,omitempty"`
	// Bars is the data of a bar chart; nil (omitted) for a line plot.
	Bars *Bars `json:"bars,omitempty"`
	// XTicks, when not nil, are the only labelled x values of a line
	// plot, whose x axis is then logarithmic (every X positive): points
	// such as slowdowns of 1, 5, 10 and 50% read apart. Nil means
	// whole-number ticks on a linear axis from 0.
	XTicks []float64 `json:"x_ticks,omitempty"`
}

// Series is one line: points (X[i], Y[i]).
type Series struct {
	// Label names the line in the legend.
	Label string `json:"label"`
	// X are the points' x values, as many as Y.
	X []float64 `json:"x"`
	// Y are the points' y values.
	Y []float64 `json:"y"`
}

// Bars is a horizontal bar chart: one bar per label, first label on top.
// The bars are drawn numbered from 1, the numbers of the report's tables.
type Bars struct {
	// IDs are the full benchmark ids, one per bar, top first.
	IDs []string `json:"ids"`
	// Labels are the ids as drawn (see [IDLabels] for the rules):
	// relative to the figure's Note, shortened and wrapped ("\n" between
	// lines).
	Labels []string `json:"labels"`
	// Values are the bars' lengths, as many as Labels.
	Values []float64 `json:"values"`
}

// Label rules; see [IDLabels].
const (
	// labelLineRunes bounds one line of a label; labelLines bounds its
	// lines, so a label never takes more than labelLineRunes characters
	// of a figure's width.
	labelLineRunes = 36
	labelLines     = 2
	// legendRunes bounds a legend entry.
	legendRunes = 40
)

// NoteRunes bounds a figure's note: a longer one is shortened with
// [MiddleEllipsis] before it is stored in the figure.
const NoteRunes = 90

// IDLabels returns the labels figures draw for benchmark ids, one per id,
// and the import path prefix they are relative to ("" when none was
// trimmed). The rules, applied in order:
//
//  1. Ids of the form "<import path>.<Benchmark…>" (see
//     [benchname.SplitID]) lose the longest run of leading path elements
//     their packages share, except that every package keeps its last
//     element: "example.com/m/internal/storage.BenchmarkAdd" and
//     "example.com/m/query.BenchmarkSelect" become
//     "internal/storage.BenchmarkAdd" and "query.BenchmarkSelect",
//     relative to "example.com/m". Other ids (file names of a directory
//     without a manifest) are kept whole and do not affect the prefix.
//  2. A label longer than 36 characters keeps only its package's last
//     element: "…/storage.BenchmarkWriteBatch/size=1024".
//  3. Labels are wrapped into at most two lines of at most 36
//     characters, breaking after a "/" or before a "." (a part longer
//     than a line is cut). When the parts do not fit, the first line is
//     filled from the start, the second from the end, and "…" at the
//     start of the second line replaces the parts in between: the
//     benchmark's package and name stay, and the last sub-benchmark
//     parameters.
//
// Labels may coincide after rule 2 or 3; figures number their bars, so
// the drawing stays unambiguous.
func IDLabels(ids []string) (labels []string, prefix string) {
	type split struct {
		elems []string
		name  string
		ok    bool
	}
	splits := make([]split, len(ids))
	var first []string
	common := 0
	for i, id := range ids {
		pkg, name, ok := benchname.SplitID(id)
		if !ok {
			continue
		}
		elems := strings.Split(pkg, "/")
		splits[i] = split{elems, name, true}
		if first == nil {
			first, common = elems, len(elems)-1
			continue
		}
		common = min(common, len(elems)-1, sharedElems(first, elems))
	}
	if common > 0 {
		prefix = strings.Join(first[:common], "/")
	}
	labels = make([]string, len(ids))
	for i, id := range ids {
		l := id
		if s := splits[i]; s.ok {
			rel := s.elems[common:]
			l = benchname.ID(strings.Join(rel, "/"), s.name)
			if utf8.RuneCountInString(l) > labelLineRunes && len(rel) > 1 {
				l = benchname.ID("…/"+rel[len(rel)-1], s.name)
			}
		}
		labels[i] = FitLabel(l, labelLineRunes, labelLines)
	}
	return labels, prefix
}

// sharedElems counts the leading elements a and b share.
func sharedElems(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// MiddleEllipsis shortens s to at most n characters by replacing its
// middle with "…", keeping slightly more of the end (where benchmark
// names and sub-benchmark parameters are) than of the start.
func MiddleEllipsis(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// FitLabel breaks s into at most lines lines of at most width
// characters. Breaks fall after a "/" or before a "." (a part longer than
// a line is cut into pieces of width-1 characters). When the parts do not
// fit, the first lines are filled from the start, the last line from the
// end, and it starts with "…" in place of the parts in between.
func FitLabel(s string, width, lines int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	var parts [][]rune
	r := []rune(s)
	for len(r) > 0 {
		n := 1
		for n < len(r) && r[n-1] != '/' && r[n] != '.' {
			n++
		}
		for n > width-1 {
			parts = append(parts, r[:width-1])
			r, n = r[width-1:], n-(width-1)
		}
		parts = append(parts, r[:n])
		r = r[n:]
	}
	var out []string
	i := 0
	for len(out) < lines-1 && i < len(parts) {
		var line []rune
		for i < len(parts) && len(line)+len(parts[i]) <= width {
			line = append(line, parts[i]...)
			i++
		}
		out = append(out, string(line))
	}
	rest := 0
	for _, p := range parts[i:] {
		rest += len(p)
	}
	if rest <= width {
		var line []rune
		for _, p := range parts[i:] {
			line = append(line, p...)
		}
		if len(line) > 0 {
			out = append(out, string(line))
		}
		return strings.Join(out, "\n")
	}
	j, n := len(parts), 1 // n counts the "…"
	for j > i && n+len(parts[j-1]) <= width {
		j--
		n += len(parts[j])
	}
	line := []rune("…")
	for _, p := range parts[j:] {
		line = append(line, p...)
	}
	return strings.Join(append(out, string(line)), "\n")
}

// Figure geometry. Every figure's data area (inside the axes) is at least
// MinDataWidth wide; line plots are 16 cm plus their legend's column by
// 10 cm, and bar charts are at least 16 cm wide, wider when the labels
// need it, and as tall as their bars need (see [Figure.Size]).
const (
	// MinDataWidth is the narrowest data area of any figure.
	MinDataWidth = 9 * vg.Centimeter

	baseWidth  = 16 * vg.Centimeter
	baseHeight = 10 * vg.Centimeter
	legendGap  = 4 * vg.Millimeter
	noteGap    = 1 * vg.Millimeter
	// margin keeps text off the image's edges (glyphs can reach a little
	// beyond their measured width).
	margin = 4 // points
	// barWidth is the drawn thickness of one bar, minSlot the least
	// height of its slot (bar and gap), in points; a label of two lines
	// gets a taller slot.
	barWidth = 12
	minSlot  = 18
)

// Font sizes, in points.
const (
	titleSize  = 12
	labelSize  = 11
	tickSize   = 10
	legendSize = 10
	noteSize   = 10
)

// figureFont is the one face of every figure's text, Liberation Sans
// (embedded in gonum.org/v1/plot, so every machine draws the same). The
// plot package's own default, plot.DefaultFont, is Liberation Serif; it
// is a variable of that package shared by every program that imports it,
// so the report sets the face on each of its text styles (in newFrame)
// rather than changing it for everyone.
var figureFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

func sans(sty *text.Style, size vg.Length) { sty.Font = font.From(figureFont, size) }

// frame is a figure ready to draw: the plot (axes, data, no title and no
// legend), the header drawn above it (title and note) and the legend
// drawn in a column right of it, never over the data.
type frame struct {
	fig    Figure
	plot   *plot.Plot
	bars   *plotter.BarChart // nil for a line plot
	legend *plot.Legend      // nil without entries
	title  text.Style
	note   text.Style
}

// newFrame builds f's plot. It fails on a bar chart without bars or
// with not as many labels as values, and on values gonum/plot cannot draw
// (NaN or infinite).
func (f Figure) newFrame() (*frame, error) {
	if b := f.Bars; b != nil && (len(b.Values) == 0 || len(b.Labels) != len(b.Values)) {
		return nil, fmt.Errorf("report: figure %s: Bars has %d labels and %d values; want as many labels as values, at least one", f.Name, len(b.Labels), len(b.Values))
	}
	p := plot.New()
	fr := &frame{fig: f, plot: p, title: p.Title.TextStyle}
	sans(&fr.title, titleSize)
	fr.note = fr.title
	sans(&fr.note, noteSize)
	fr.note.Color = color.Gray{Y: 0x55}
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		sans(&a.Label.TextStyle, labelSize)
		sans(&a.Tick.Label, tickSize)
	}
	p.BackgroundColor = color.White
	grid := plotter.NewGrid()
	p.Add(grid)
	if f.Bars != nil {
		k := len(f.Bars.Labels)
		vals := make(plotter.Values, k)
		labels := make([]string, k)
		for i := range f.Bars.Values {
			// The first bar is drawn at the top.
			vals[k-1-i] = f.Bars.Values[i]
			labels[k-1-i] = fmt.Sprintf("%d. %s", i+1, f.Bars.Labels[i])
		}
		bars, err := plotter.NewBarChart(vals, vg.Points(barWidth))
		if err != nil {
			return nil, fmt.Errorf("report: figure %s: %w", f.Name, err)
		}
		bars.Horizontal = true
		bars.Color = plotutil.Color(0)
		bars.LineStyle.Width = 0
		grid.Horizontal.Color = nil // no line through the bars
		p.Add(bars)
		p.NominalY(labels...)
		p.X.Padding = 0 // the slots already space the bars from the axis
		// One slot per bar, the bar in its middle.
		p.Y.Min, p.Y.Max = -0.5, float64(k)-0.5
		p.X.Min, p.X.Max = 0, math.Max(100, p.X.Max)
		p.X.Tick.Marker = percentTicks{}
		fr.bars = bars
		return fr, nil
	}
	p.Y.Min, p.Y.Max = 0, 100
	p.Y.Tick.Marker = percentTicks{}
	leg := plot.NewLegend()
	sans(&leg.TextStyle, legendSize)
	leg.Top, leg.Left = true, true
	leg.Padding = vg.Points(2)
	for i, s := range f.Lines {
		xys := make(plotter.XYs, len(s.X))
		for j := range s.X {
			xys[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("report: figure %s: %w", f.Name, err)
		}
		c := plotutil.Color(i)
		line.Color, points.Color = c, c
		line.Width = vg.Points(1.5)
		points.Shape = plotutil.Shape(i)
		if i >= 3 {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(line, points)
		leg.Add(MiddleEllipsis(s.Label, legendRunes), line, points)
	}
	if len(f.Lines) > 0 {
		fr.legend = &leg
	}
	switch {
	case f.XTicks != nil:
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = fixedTicks(f.XTicks)
		p.X.Min, p.X.Max = slices.Min(f.XTicks)/1.5, slices.Max(f.XTicks)*1.5
	case len(f.Lines) > 0 && len(f.Lines[0].X) > 0:
		p.X.Min = 0
		p.X.Tick.Marker = integerTicks{}
	}
	return fr, nil
}

// fixedTicks labels its values only (Figure.XTicks), as %g.
type fixedTicks []float64

func (t fixedTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for _, v := range t {
		if v >= min && v <= max {
			ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("%g", v)})
		}
	}
	return ts
}

// headerHeight is the height of the title and note above the plot.
func (fr *frame) headerHeight() vg.Length {
	h := fr.title.Height(fr.fig.Title) + vg.Points(4)
	if fr.fig.Note != "" {
		h += fr.note.Height(fr.fig.Note) + noteGap
	}
	return h
}

// legendWidth is the width of the legend's column, 0 without a legend.
func (fr *frame) legendWidth() vg.Length {
	if fr.legend == nil {
		return 0
	}
	r := fr.legend.Rectangle(draw.Canvas{})
	return r.Max.X - r.Min.X + legendGap + vg.Points(4)
}

// layout divides a canvas of the figure's size into the plot's area, the
// data area inside its axes and the legend's column.
type layout struct {
	Plot, Data, Legend vg.Rectangle
}

func (fr *frame) layout(c draw.Canvas) layout {
	pc := draw.Crop(c, margin, -fr.legendWidth()-margin, margin, -fr.headerHeight())
	l := layout{Plot: pc.Rectangle, Data: fr.plot.DataCanvas(pc).Rectangle}
	if fr.legend != nil {
		l.Legend = vg.Rectangle{
			Min: vg.Point{X: pc.Max.X + legendGap, Y: c.Min.Y},
			Max: vg.Point{X: c.Max.X, Y: l.Data.Max.Y},
		}
	}
	return l
}

// size returns the figure's size: line plots 16 cm plus the legend's
// column by 10 cm; bar charts at least 16 cm wide, wider when their labels
// would leave less than MinDataWidth for the data, and as tall as their
// slots need. The axes' sizes do not depend on the canvas, so one probe
// layout gives them.
func (fr *frame) size() (w, h vg.Length) {
	w, h = baseWidth+fr.legendWidth(), baseHeight
	if fr.bars == nil {
		return w, h
	}
	k := len(fr.fig.Bars.Labels)
	lines := 1
	for _, l := range fr.fig.Bars.Labels {
		lines = max(lines, strings.Count(l, "\n")+1)
	}
	slot := max(vg.Points(minSlot), vg.Length(lines)*tickSize+vg.Points(8))
	const probe = 100 * vg.Centimeter
	l := fr.layout(draw.NewCanvas(&recorder.Canvas{}, probe, probe))
	outerW := probe - (l.Data.Max.X - l.Data.Min.X)
	outerH := probe - (l.Data.Max.Y - l.Data.Min.Y)
	return max(baseWidth, outerW+MinDataWidth), outerH + vg.Length(k)*slot
}

// Size returns the figure's drawing size (see the geometry constants):
// line plots are 16 cm plus their legend by 10 cm; bar charts are at least
// 16 cm wide, wider when their labels leave less than [MinDataWidth] for
// the bars (labels are at most two lines of 36 characters, see
// [IDLabels], which bounds the width), and as tall as their bars need. It
// returns 16 × 10 cm for a figure the draw methods reject.
func (f Figure) Size() (w, h vg.Length) {
	fr, err := f.newFrame()
	if err != nil {
		return baseWidth, baseHeight
	}
	return fr.size()
}

// draw draws the figure on c: header, plot, legend.
func (fr *frame) draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	l := fr.layout(c)
	title := fr.title
	title.XAlign = draw.XCenter
	title.YAlign = draw.YTop
	top := c.Max.Y - vg.Points(2)
	c.FillText(title, vg.Point{X: (l.Plot.Min.X + l.Plot.Max.X) / 2, Y: top}, fr.fig.Title)
	if fr.fig.Note != "" {
		note := fr.note
		note.XAlign = draw.XCenter
		note.YAlign = draw.YTop
		c.FillText(note, vg.Point{X: (l.Plot.Min.X + l.Plot.Max.X) / 2, Y: top - fr.title.Height(fr.fig.Title) - noteGap}, fr.fig.Note)
	}
	fr.plot.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: l.Plot})
	if fr.legend != nil {
		fr.legend.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: l.Legend})
	}
}

// PNG draws the figure as a PNG image at 96 dpi.
func (f Figure) PNG() ([]byte, error) { return f.draw("png") }

// SVG draws the figure as an SVG document.
func (f Figure) SVG() ([]byte, error) { return f.draw("svg") }

func (f Figure) draw(format string) ([]byte, error) {
	fr, err := f.newFrame()
	if err != nil {
		return nil, err
	}
	b, err := fr.encode(format)
	if err != nil {
		return nil, fmt.Errorf("report: figure %s: %w", f.Name, err)
	}
	return b, nil
}

// An SVG names its font without embedding it (that would add hundreds of
// kilobytes per figure). Where Liberation Sans is not installed, Arial and
// Helvetica have the same metrics, so the labels measured with it still
// fit; sans-serif is the last resort.
const (
	svgFont         = "font-family:Liberation Sans;"
	svgFontFallback = "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"
)

// percentTicks marks a percentage axis every 5%, labelled every 10%.
type percentTicks struct{}

func (percentTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for v := int(math.Ceil(min/5)) * 5; float64(v) <= max; v += 5 {
		t := plot.Tick{Value: float64(v)}
		if v%10 == 0 {
			t.Label = fmt.Sprint(v)
		}
		ts = append(ts, t)
	}
	return ts
}

var _ plot.Ticker = percentTicks{}

// integerTicks labels whole numbers only (counts of benchmarks or
// functions), at most about ten of them.
type integerTicks struct{}

func (integerTicks) Ticks(min, max float64) []plot.Tick {
	step := 1
	for (max-min)/float64(step) > 10 {
		step *= 2
	}
	var ts []plot.Tick
	for v := int(min); float64(v) <= max; v++ {
		t := plot.Tick{Value: float64(v)}
		if v%step == 0 {
			t.Label = fmt.Sprint(v)
		}
		ts = append(ts, t)
	}
	return ts
}

var _ plot.Ticker = integerTicks{}
