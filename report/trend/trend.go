// Package trend renders a benchmark history (package history) as
// documents: what `mbopt history` shows. A [Document] holds each
// benchmark's series against one baseline with the detections that
// history.Set.Detect found in it; [WriteText], [WriteMarkdown] and
// [WriteJSON] write it, [SeriesSVG] draws one series. The A/A calibration
// has its own: [WriteCalibrationText], [WriteCalibrationJSON] and
// [InstabilitySVG]. The figures are drawn by package report/plot.
package trend

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/bisect"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/report/internal/doc"
	"github.com/mbopt/mbopt/report/internal/render"
	"github.com/mbopt/mbopt/report/plot"
)

// SchemaVersion is the version of the JSON form of a [Document] and of a
// [CalibrationDocument].
const SchemaVersion = 1

// Document is what `mbopt history` shows: each benchmark's series
// against one baseline and the detections in it. Its JSON field names are
// stable.
type Document struct {
	// Schema is SchemaVersion.
	Schema int `json:"schema"`
	// Baseline is the base revision of every series.
	Baseline Revision `json:"baseline"`
	// Options are the detectors' parameters; each series' initial
	// threshold may differ (see Series.InitialThreshold).
	Options detect.Options `json:"options"`
	// Series are in the order of history.Set: by id, unit, machine and
	// settings hash.
	Series []Series `json:"series"`
	// Bridges are where the baseline moved (history.Set.Bridges): points
	// measured against another baseline are carried across them.
	Bridges []history.Bridge `json:"bridges,omitempty"`
	// Confirmations are the application workload measured on both
	// versions of the comparisons (history.Set.Confirmations), in
	// ancestry order; omitted when none was stored.
	Confirmations []history.Confirmation `json:"confirmations,omitempty"`
}

// Revision is a commit of a series.
type Revision struct {
	// Commit is the full hash.
	Commit string `json:"commit"`
	// Subject is the commit message's first line.
	Subject string `json:"subject,omitempty"`
	// Time is the commit time.
	Time time.Time `json:"time"`
	// Depth is the commit's first-parent depth (compare.Revision.Depth),
	// omitted when unknown.
	Depth int `json:"depth,omitempty"`
}

// Series is one benchmark's series and its detections.
type Series struct {
	// ID is the benchmark id.
	ID string `json:"id"`
	// Unit is the unit of the measurements.
	Unit string `json:"unit"`
	// Machine describes where it ran (see history.Machine.String).
	Machine string `json:"machine"`
	// SettingsHash identifies the comparison settings.
	SettingsHash string `json:"settings_hash"`
	// Distinct names the settings that separate this series from another
	// of the same benchmark, unit and machine (history.Series.Distinct).
	Distinct string `json:"distinct_settings,omitempty"`
	// InitialThreshold is the detectors' initial threshold for it, and
	// ThresholdSource where it came from: calibrated, suite, given or
	// default.
	InitialThreshold float64 `json:"initial_threshold"`
	// ThresholdSource is one of history's Threshold… constants.
	ThresholdSource string `json:"threshold_source"`
	// Points are the commits in order.
	Points []Point `json:"points"`
	// Detections are ordered as package detect orders them.
	Detections []Detection `json:"detections"`
	// Skipped are the stored results the series left out, and why (see
	// history.Series.Skipped).
	Skipped []history.Skipped `json:"skipped,omitempty"`
}

// Point is one commit of a series: the stored point, as its comparison
// measured and judged it (history.Point: its Threshold is the one the
// verdict was taken against), and the detectors' dynamic threshold at it.
// Its JSON form is that of schema 1 (see [Point.MarshalJSON]).
type Point struct {
	// Point is the stored point, as history.Set.Series returned it.
	history.Point
	// DetectThreshold is the detectors' dynamic threshold at the point.
	DetectThreshold float64
}

// Detection is one detection, with its commit.
type Detection struct {
	// Detection is the detection; its fields are inlined in JSON.
	detect.Detection
	// Commit is the hash of the point's commit.
	Commit string `json:"commit"`
	// Bisect is the mbopt bisect command that locates a jump or an
	// E-divisive change point among the commits between the point
	// before it (the baseline before the first point) and the point's
	// commit (see bisect.Command); omitted for other detections and for
	// units no metric measures.
	Bisect string `json:"bisect,omitempty"`
}

// NewDocument returns the document of the detections in a history:
// each series of detected (see [history.Set.Detect]) against baseline, in
// detected's order; opt are the detectors' options (each series' initial
// threshold may differ from opt's).
func NewDocument(baseline compare.Revision, opt detect.Options, detected []history.Detected) *Document {
	d := &Document{
		Schema:   SchemaVersion,
		Baseline: Revision{Commit: baseline.Commit, Subject: baseline.Subject, Time: baseline.Time},
		Options:  opt,
		Series:   []Series{},
	}
	for _, ds := range detected {
		s := ds.Series
		hs := Series{ID: s.ID, Unit: s.Unit, Machine: s.Machine.String(), SettingsHash: s.SettingsHash, Distinct: s.Distinct,
			InitialThreshold: ds.InitialThreshold, ThresholdSource: ds.ThresholdSource, Detections: []Detection{},
			Skipped: s.Skipped}
		for i, p := range s.Points {
			hs.Points = append(hs.Points, Point{Point: p, DetectThreshold: ds.Thresholds[i]})
		}
		for _, det := range ds.Detections {
			hd := Detection{Detection: det, Commit: s.Points[det.Index].Head.Commit}
			if det.Kind == detect.Jump || det.Kind == detect.EDivisive {
				good := baseline.Commit
				if det.Index > 0 {
					good = s.Points[det.Index-1].Head.Commit
				}
				hd.Bisect = bisect.Command(s.ID, s.Unit, good, hd.Commit)
			}
			hs.Detections = append(hs.Detections, hd)
		}
		d.Series = append(d.Series, hs)
	}
	return d
}

// WriteJSON writes d as indented JSON.
func WriteJSON(w io.Writer, d *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

// short returns a commit's first 10 characters.
func short(commit string) string { return commit[:min(10, len(commit))] }

// detectionText is "definite jump up +8.1% (threshold 1.5%)".
func detectionText(det detect.Detection) string {
	kind := "potential"
	if det.Definite {
		kind = "definite"
	}
	s := fmt.Sprintf("%s %s %s %s", kind, det.Kind, det.Direction, render.SignedPct(det.Change))
	switch det.Kind {
	case detect.Fixed:
		s += fmt.Sprintf(" (bound %s)", render.SignedPct(det.Threshold))
	case detect.Trend:
		s += fmt.Sprintf(" (threshold %s, against %d commits)", render.Pct(det.Threshold), det.Window)
	default:
		s += fmt.Sprintf(" (threshold %s)", render.Pct(det.Threshold))
	}
	return s
}

// pointMarks returns, per point, the short marks of its detections:
// "J" definite jump, "j" potential jump, "T"/"t" trend, "F"/"f" fixed,
// "E"/"e" E-divisive.
func pointMarks(s Series) []string {
	marks := make([]string, len(s.Points))
	for _, det := range s.Detections {
		m := strings.ToUpper(string(det.Kind[0]))
		if !det.Definite {
			m = strings.ToLower(m)
		}
		marks[det.Index] += m
	}
	return marks
}

// subjectRunes bounds a commit subject in the text table.
const subjectRunes = 40

// WriteText writes d as text: per series a table of its commits (short
// hash, subject and date; the baseline's and the head's values, when
// stored; the
// change, its interval, the detectors' threshold and marks; and the
// verdict the comparison gave then, with its threshold) and its
// detections in words.
func WriteText(w io.Writer, d *Document) error {
	ew := render.NewTextWriter(w)
	writeTextHeader(ew, d)
	for _, s := range d.Series {
		fmt.Fprintf(ew, "\n%s  %s\n", s.ID, s.Unit)
		settings := ""
		if s.Distinct != "" {
			settings = ", settings " + s.Distinct
		}
		fmt.Fprintf(ew, "  %s%s; initial threshold %s (%s)\n", s.Machine, settings, render.Pct(s.InitialThreshold), s.ThresholdSource)
		doc.Text(ew).Table(pointsTable(s))
		for i, p := range s.Points {
			if line := AppImpactText(p.AppImpact, p.Culprits); line != "" {
				fmt.Fprintf(ew, "  %d %s: %s\n", i, short(p.Head.Commit), line)
			}
		}
		if line := recalibrated(s); line != "" {
			fmt.Fprintf(ew, "  %s\n", line)
		}
		for _, sk := range s.Skipped {
			fmt.Fprintf(ew, "  left out: %s (comparison %d): %s\n", short(sk.Head.Commit), sk.Comparison, sk.Reason)
		}
		if len(s.Detections) == 0 {
			fmt.Fprintln(ew, "  no detections")
			continue
		}
		for _, det := range s.Detections {
			fmt.Fprintf(ew, "  %d %s: %s\n", det.Index, short(det.Commit), detectionText(det.Detection))
			if det.Bisect != "" {
				fmt.Fprintf(ew, "    locate it: %s\n", det.Bisect)
			}
		}
	}
	if len(d.Series) > 0 {
		legend := "J jump, T trend, F fixed-value bound"
		if d.Options.Runs(detect.EDivisive) {
			legend += ", E E-divisive change point"
		}
		fmt.Fprintf(ew, "\n(marks: %s; capital definite, small potential)\n", legend)
	}
	return ew.Close()
}

// writeTextHeader writes the text's first lines: the baseline and the
// number of series, where the baseline moved, and the application
// measured on both versions of the comparisons.
func writeTextHeader(ew io.Writer, d *Document) {
	fmt.Fprintf(ew, "mbopt: benchmark history against baseline %s", short(d.Baseline.Commit))
	var about []string
	if d.Baseline.Subject != "" {
		about = append(about, plot.MiddleEllipsis(textutil.FirstLine(d.Baseline.Subject), subjectRunes))
	}
	if !d.Baseline.Time.IsZero() {
		about = append(about, date(d.Baseline.Time))
	}
	if len(about) > 0 {
		fmt.Fprintf(ew, " (%s)", strings.Join(about, ", "))
	}
	fmt.Fprintf(ew, ", %d series\n", len(d.Series))
	for _, b := range d.Bridges {
		fmt.Fprintf(ew, "  baseline moved: %s → %s (%s), bridged by comparison %d; points measured against another baseline are carried across (judged then … vs it)\n",
			short(b.From.Commit), short(b.To.Commit), date(b.To.Time), b.Comparison)
	}
	for _, c := range d.Confirmations {
		fmt.Fprintf(ew, "  application measured at %s (%s): %s\n", short(c.Head.Commit), date(c.Head.Time), ConfirmationText(c))
	}
}

// AppImpactText says what a comparison estimated of a change's effect on
// the application in compare's words (report/verdict): "estimated
// application impact +6.8% [+6.1% … +7.4%] from the changed functions,
// 90.0% of the movement in the application's functions", then ": likely
// no application impact" when the change lies outside the application's
// functions, and "; culprits a.F, b.G"; "" for a nil a.
func AppImpactText(a *culprit.AppImpact, culprits []string) string {
	if a == nil {
		return ""
	}
	var s string
	switch a.Basis {
	case culprit.BasisNone:
		s = "estimated application impact 0: no function and not the benchmark changed beyond its noise"
	case culprit.BasisBenchmark:
		s = fmt.Sprintf("estimated application impact %s [%s … %s] from the benchmark's change × its %s share of the application",
			render.SignedPct(a.Estimate), render.SignedPct(a.Low), render.SignedPct(a.High), render.Pct(a.BenchmarkShare))
	default:
		s = fmt.Sprintf("estimated application impact %s [%s … %s] from the changed functions, %s of the movement in the application's functions",
			render.SignedPct(a.Estimate), render.SignedPct(a.Low), render.SignedPct(a.High), render.Pct(a.RelevantShare))
	}
	if a.NoImpact && a.Basis != culprit.BasisNone {
		s += ": likely no application impact"
	}
	if len(culprits) > 0 {
		s += "; culprits " + strings.Join(culprits, ", ")
	}
	return s
}

// ConfirmationText says what the application workload measured on both
// versions of a comparison showed: "+7.0% [+5.0% … +9.0%] in sec/op
// (benchmark example.com/m.BenchmarkApp), against 1a2b3c4d5e".
func ConfirmationText(c history.Confirmation) string {
	e := c.Estimate
	return fmt.Sprintf("%s [%s … %s] in %s (%s), against %s", render.SignedPct(e.Change), render.SignedPct(e.CI.Low), render.SignedPct(e.CI.High), c.Unit, c.Source, short(c.Base))
}

// date writes a commit time as its UTC day, "2026-03-01"; "" when zero.
func date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

// judgedText is a point's verdict as its comparison gave it: "potential
// regression ±1.0%", and "vs 1a2b3c4d5e" when it was measured against
// another baseline.
func judgedText(p Point) string {
	s := strings.ReplaceAll(p.Verdict.String(), "-", " ")
	if p.Threshold > 0 {
		s += " ±" + render.Pct(p.Threshold)
	}
	if p.Base != "" {
		s += " vs " + short(p.Base)
	}
	return s
}

// recalibrated says, when the comparisons judged s's points against
// thresholds other than the detectors' initial threshold (a calibration
// since, or --initial-threshold), which: "judged then against ±1.0%
// (points 0–7), ±1.5% (8–15); the detectors start from 1.8% (calibrated)".
// The points' verdicts stay as they were judged.
func recalibrated(s Series) string {
	type run struct {
		t          float64
		first, end int
	}
	var runs []run
	differs := false
	for i, p := range s.Points {
		t := p.Threshold
		if t == 0 {
			continue
		}
		differs = differs || math.Abs(t-s.InitialThreshold) > 1e-12
		if n := len(runs); n > 0 && runs[n-1].t == t && runs[n-1].end == i-1 {
			runs[n-1].end = i
			continue
		}
		runs = append(runs, run{t, i, i})
	}
	if !differs {
		return ""
	}
	var parts []string
	for i, r := range runs {
		span := fmt.Sprint(r.first)
		if r.end > r.first {
			span += "–" + fmt.Sprint(r.end)
		}
		if i == 0 {
			span = "points " + span
		}
		parts = append(parts, fmt.Sprintf("±%s (%s)", render.Pct(r.t), span))
	}
	return fmt.Sprintf("judged then against %s; the detectors start from %s (%s)", strings.Join(parts, ", "), render.Pct(s.InitialThreshold), s.ThresholdSource)
}

// WriteMarkdown writes d as Markdown: a summary table of every
// series and a section per series with detections.
func WriteMarkdown(w io.Writer, d *Document) error {
	ew := &render.ErrWriter{W: w}
	p := func(format string, args ...any) { fmt.Fprintf(ew, format+"\n", args...) }
	p("## Benchmark history against %s", render.MarkdownCode(short(d.Baseline.Commit)))
	p("")
	for _, b := range d.Bridges {
		p("Baseline moved: %s → %s (%s), bridged by comparison %d.", render.MarkdownCode(short(b.From.Commit)), render.MarkdownCode(short(b.To.Commit)), date(b.To.Time), b.Comparison)
		p("")
	}
	if len(d.Series) == 0 {
		p("No series.")
		return ew.Err
	}
	doc.Markdown(ew).Table(seriesTable(d))
	for _, s := range d.Series {
		if len(s.Detections) == 0 {
			continue
		}
		p("")
		p("### %s (%s)", render.MarkdownCode(s.ID), render.EscapeMarkdown(s.Unit))
		p("")
		machine := s.Machine
		if s.Distinct != "" {
			machine += ", settings " + s.Distinct
		}
		p("%s, initial threshold %s (%s).", render.EscapeMarkdown(machine), render.Pct(s.InitialThreshold), s.ThresholdSource)
		p("")
		if line := recalibrated(s); line != "" {
			p("%s.", render.EscapeMarkdown(strings.ToUpper(line[:1])+line[1:]))
			p("")
		}
		for _, det := range s.Detections {
			pt := s.Points[det.Index]
			line := fmt.Sprintf("- %s %s %s: %s", render.MarkdownCode(short(det.Commit)), date(pt.Head.Time), render.EscapeMarkdown(textutil.FirstLine(pt.Head.Subject)), detectionText(det.Detection))
			if est := AppImpactText(pt.AppImpact, pt.Culprits); est != "" {
				line += "; " + render.EscapeMarkdown(est)
			}
			p("%s", line)
		}
	}
	return ew.Err
}

// CalibrationDocument is the JSON form of an A/A calibration: the
// instabilities and the thresholds derived from them.
type CalibrationDocument struct {
	// Schema is SchemaVersion.
	Schema int `json:"schema"`
	// Instabilities are sorted by id, then unit.
	Instabilities []history.Instability `json:"instabilities"`
	// Calibration holds the thresholds.
	Calibration *history.Calibration `json:"calibration"`
}

// WriteCalibrationJSON writes insts and cal as a [CalibrationDocument].
func WriteCalibrationJSON(w io.Writer, insts []history.Instability, cal *history.Calibration) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(CalibrationDocument{Schema: SchemaVersion, Instabilities: insts, Calibration: cal})
}

// WriteCalibrationText writes insts and cal as a table: per benchmark and
// unit its number of A/A results, median and largest instability, the
// calibration quantile and the initial threshold; then the A/A results
// left out (Instability.Skipped), one line each.
func WriteCalibrationText(w io.Writer, insts []history.Instability, cal *history.Calibration) error {
	ew := render.NewTextWriter(w)
	q := cal.Options.Quantile
	fmt.Fprintf(ew, "mbopt: A/A instabilities of %s, initial thresholds = max(%s, %.2f × the %.0fth percentile)\n\n",
		textutil.Plural(len(insts), "benchmark"), render.Pct(cal.Options.Floor), cal.Options.Factor, 100*q)
	t := &render.Table{}
	t.Row("benchmark", "unit", "runs", "median", "max", fmt.Sprintf("p%.0f", 100*q), "threshold")
	for _, in := range insts {
		if len(in.Widths) == 0 {
			continue
		}
		th, _ := cal.For(in.ID, in.Unit)
		var own history.Threshold
		for _, c := range cal.Thresholds {
			if c.ID == in.ID && c.Unit == in.Unit {
				own = c
			}
		}
		t.Row(in.ID, in.Unit, fmt.Sprint(len(in.Widths)), render.Pct(in.Median()), render.Pct(maxOf(in.Widths)), render.Pct(own.Instability), render.Pct(th))
	}
	t.Write(ew)
	fmt.Fprintf(ew, "\nsuite threshold (benchmarks without A/A results): %s, the %.0fth percentile of the benchmarks' median instabilities\n", render.Pct(cal.Suite), 100*q)
	for _, in := range insts {
		for _, why := range in.Skipped {
			fmt.Fprintf(ew, "left out: %s %s, %s\n", in.ID, in.Unit, why)
		}
	}
	return ew.Close()
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs[1:] {
		m = max(m, x)
	}
	return m
}
