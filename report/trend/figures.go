package trend

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/render"
	"github.com/mbopt/mbopt/report/plot"
)

// machineRunes bounds the machine's description in a figure's note.
const machineRunes = 24

// SeriesSVG draws s in the style of the study's Figures 5, 6, 8 and 9 (see
// [plot.HistoryFigure]): the change against the baseline per commit with
// its confidence interval, the jump thresholds and the detections.
// baseline is the baseline's commit, named in the note with the unit, the
// initial threshold and the machine. It fails on a series without points.
func SeriesSVG(s Series, baseline string) ([]byte, error) {
	f := &plot.HistoryFigure{
		Title: s.ID,
		Note:  fmt.Sprintf("%s vs %s · initial threshold %s (%s) · %s", s.Unit, short(baseline), render.Pct(s.InitialThreshold), s.ThresholdSource, plot.MiddleEllipsis(s.Machine, machineRunes)),
	}
	for _, p := range s.Points {
		f.Points = append(f.Points, plot.HistoryPoint{Point: p.Point.Point, Threshold: p.DetectThreshold,
			Label: strings.TrimSpace(p.Head.Commit[:min(7, len(p.Head.Commit))] + "\n" + date(p.Head.Time))})
	}
	for _, det := range s.Detections {
		f.Detections = append(f.Detections, det.Detection)
	}
	return f.SVG()
}

// InstabilitySVG draws the distribution of the A/A instabilities in
// insts as a cumulative distribution function, the study's Figure 7: for
// each instability x (in %), the share of A/A results at most x. One line
// per unit, in unit order; the calibration's suite threshold, when
// positive, is a dashed vertical line, and the calibration quantile a
// dotted horizontal one. It fails when insts hold no A/A result.
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
	f := &plot.CDFFigure{
		Title:  "Instability of the benchmarks in A/A comparisons",
		Note:   fmt.Sprintf("%s of %s; instability = width of the 99%% CI", textutil.Plural(total, "A/A result"), textutil.Plural(len(insts), "benchmark")),
		XLabel: "instability (%)",
		YLabel: "A/A results at most this unstable (%)",
	}
	for _, u := range units {
		f.Lines = append(f.Lines, plot.CDFLine{Label: fmt.Sprintf("%s (%d)", u, len(byUnit[u])), Values: byUnit[u]})
	}
	if cal != nil && cal.Suite > 0 {
		f.Threshold, f.ThresholdLabel = cal.Suite, fmt.Sprintf("suite threshold %s", render.Pct(cal.Suite))
		f.Quantile, f.QuantileLabel = cal.Options.Quantile, fmt.Sprintf("%.0f%% of the results", 100*cal.Options.Quantile)
	}
	return f.SVG()
}

// FigureName names the SVG file of a series: its id and unit made a file
// name of at most 200 bytes by benchname.FileName (ASCII letters, digits
// and "-_.=+," only, so no separator and no ".."), and a number when an
// earlier name in used is taken (the same benchmark on two machines). It
// records the name in used.
func FigureName(s Series, used map[string]bool) string {
	base := benchname.FileName(s.ID+"-"+s.Unit, 200)
	name := base + ".svg"
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("%s-%d.svg", base, i)
	}
	used[name] = true
	return name
}

// FieldDir is the setting the directory of [WriteFigures] and
// [WriteInstabilityFigure] stands for in their errors.
const FieldDir mbopt.Field = "Dir"

// WriteFigures writes one SVG per series of d into dir ([SeriesSVG], named
// by [FigureName]), creating dir, each file atomically. A dir that cannot
// be created is an [*mbopt.Error] naming the field Dir.
func WriteFigures(dir string, d *Document) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return mbopt.Errorf("%s %s: %w", FieldDir, dir, err)
	}
	used := map[string]bool{}
	for _, s := range d.Series {
		svg, err := SeriesSVG(s, d.Baseline.Commit)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(filepath.Join(dir, FigureName(s, used)), svg); err != nil {
			return err
		}
	}
	return nil
}

// WriteInstabilityFigure writes [InstabilitySVG] into dir as
// instability.svg, creating dir, atomically, and returns the file's path.
// A dir that cannot be created is an [*mbopt.Error] naming the field Dir.
func WriteInstabilityFigure(dir string, insts []history.Instability, cal *history.Calibration) (string, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", mbopt.Errorf("%s %s: %w", FieldDir, dir, err)
	}
	svg, err := InstabilitySVG(insts, cal)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "instability.svg")
	return path, atomicfile.WriteFile(path, svg)
}
