package report

import (
	"bytes"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
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
	// XLabel is the x axis' label.
	XLabel string `json:"x_label"`
	// YLabel is the y axis' label.
	YLabel string `json:"y_label"`
	// Lines are the series of a line plot; nil (omitted) for a bar chart.
	Lines []Series `json:"lines,omitempty"`
	// Bars is the data of a bar chart; nil (omitted) for a line plot.
	Bars *Bars `json:"bars,omitempty"`
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
type Bars struct {
	// Labels name the bars, top first.
	Labels []string `json:"labels"`
	// Values are the bars' lengths, as many as Labels.
	Values []float64 `json:"values"`
}

// Figures returns the report's figures for d, in display order:
//
//   - "suite-coverage": cumulative project-only and overall coverage (and
//     covered application CPU time) after each pick of the minimal suite,
//     the dissertation's Figure 6.6; with scenarios, one project-only line
//     per scenario as well;
//   - "recommend-coverage": cumulative coverage after each recommended
//     function, starting from the whole suite's coverage (Figure 6.7),
//     when there are recommendations;
//   - "suite-impact": each selected benchmark's reference impact, as a
//     share of the application's CPU time, in pick order.
//
// Percentages are 0–100.
func Figures(d *Document) []Figure {
	var figs []Figure
	n := len(d.MinimalSuite)
	x := make([]float64, n+1)
	for i := range x {
		x[i] = float64(i)
	}
	proj, over, imp := []float64{0}, []float64{0}, []float64{0}
	for _, p := range d.MinimalSuite {
		proj = append(proj, 100*p.CumulativeProjectRatio)
		over = append(over, 100*p.CumulativeOverallRatio)
		share := 0.0
		if d.Application.TotalSeconds > 0 {
			share = 100 * p.CumulativeImpact / d.Application.TotalSeconds
		}
		imp = append(imp, share)
	}
	suite := Figure{
		Name:    "suite-coverage",
		Title:   "Coverage of the application by the minimal suite",
		Caption: fmt.Sprintf("Cumulative coverage after each of the %d picks (%s criterion), as in the dissertation's Figure 6.6: the first picks matter most; the last point is the whole suite's coverage.", n, d.Criterion),
		XLabel:  "benchmarks in the suite",
		YLabel:  "coverage (%)",
		Lines: []Series{
			{Label: "project-only", X: x, Y: proj},
			{Label: "overall", X: x, Y: over},
			{Label: "application CPU time", X: x, Y: imp},
		},
	}
	if sc := d.Scenarios; sc != nil {
		for i, name := range sc.Names {
			y := append([]float64{0}, scale100(sc.SuiteProject[i])...)
			suite.Lines = append(suite.Lines, Series{Label: "project-only: " + name, X: x, Y: y})
		}
	}
	figs = append(figs, suite)

	if len(d.Recommendations) > 0 {
		m := len(d.Recommendations)
		rx := make([]float64, m+1)
		for i := range rx {
			rx[i] = float64(i)
		}
		rp := []float64{100 * d.Coverage.Project.Ratio}
		ro := []float64{100 * d.Coverage.Overall.Ratio}
		for _, r := range d.Recommendations {
			rp = append(rp, 100*r.CumulativeProjectRatio)
			ro = append(ro, 100*r.CumulativeOverallRatio)
		}
		figs = append(figs, Figure{
			Name:    "recommend-coverage",
			Title:   "Coverage if the recommended functions were benchmarked",
			Caption: fmt.Sprintf("Cumulative coverage after adding a benchmark for each of the %d recommended functions (Algorithm 3), starting from the whole suite's coverage at 0, as in the dissertation's Figure 6.7.", m),
			XLabel:  "recommended functions",
			YLabel:  "coverage (%)",
			Lines:   []Series{{Label: "project-only", X: rx, Y: rp}, {Label: "overall", X: rx, Y: ro}},
		})
	}

	if n > 0 {
		b := &Bars{}
		for _, p := range d.MinimalSuite {
			b.Labels = append(b.Labels, p.ID)
			b.Values = append(b.Values, 100*p.ImpactShare)
		}
		figs = append(figs, Figure{
			Name:    "suite-impact",
			Title:   "Reference impact of the selected benchmarks",
			Caption: "Share of the application's CPU time spent in the functions each selected benchmark covers (its reference impact), in pick order. Shares overlap, so they need not sum to 100%.",
			XLabel:  "application CPU time covered (%)",
			Bars:    b,
		})
	}
	return figs
}

func scale100(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = 100 * x
	}
	return out
}

// Size returns the figure's drawing size: 16 × 10 cm for lines; bar charts
// grow with the number of bars.
func (f Figure) Size() (w, h vg.Length) {
	w, h = 16*vg.Centimeter, 10*vg.Centimeter
	if f.Bars != nil {
		h = vg.Length(3+0.7*float64(len(f.Bars.Labels))) * vg.Centimeter
	}
	return w, h
}

// PNG draws the figure as a PNG image at 96 dpi.
func (f Figure) PNG() ([]byte, error) { return f.draw("png") }

// SVG draws the figure as an SVG document.
func (f Figure) SVG() ([]byte, error) { return f.draw("svg") }

func (f Figure) draw(format string) ([]byte, error) {
	p := plot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	p.BackgroundColor = color.White
	if f.Bars != nil {
		k := len(f.Bars.Labels)
		vals := make(plotter.Values, k)
		labels := make([]string, k)
		for i := range f.Bars.Values {
			// The first bar is drawn at the top.
			vals[k-1-i] = f.Bars.Values[i]
			labels[k-1-i] = fmt.Sprintf("%d. %s", i+1, f.Bars.Labels[i])
		}
		bars, err := plotter.NewBarChart(vals, vg.Points(12))
		if err != nil {
			return nil, fmt.Errorf("report: figure %s: %w", f.Name, err)
		}
		bars.Horizontal = true
		bars.Color = plotutil.Color(0)
		bars.LineStyle.Width = 0
		p.Add(bars)
		p.NominalY(labels...)
		p.X.Min, p.X.Max = 0, 100
		p.Add(plotter.NewGrid())
	} else {
		p.Y.Min, p.Y.Max = 0, 100
		p.Legend.Top = false
		p.Legend.Left = false
		p.Legend.XOffs = -vg.Millimeter
		p.Legend.YOffs = 2 * vg.Millimeter
		p.Add(plotter.NewGrid())
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
			p.Legend.Add(s.Label, line, points)
		}
		if len(f.Lines) > 0 && len(f.Lines[0].X) > 0 {
			p.X.Min = 0
			p.X.Tick.Marker = integerTicks{}
		}
	}
	w, h := f.Size()
	wt, err := p.WriterTo(w, h, format)
	if err != nil {
		return nil, fmt.Errorf("report: figure %s: %w", f.Name, err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: figure %s: %w", f.Name, err)
	}
	return buf.Bytes(), nil
}

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
