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
	"strings"
	"time"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/detect"
	"github.com/mbopt/mbopt/history"
	"github.com/mbopt/mbopt/internal/textutil"
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
}

// Revision is a commit of a series.
type Revision struct {
	// Commit is the full hash.
	Commit string `json:"commit"`
	// Subject is the commit message's first line.
	Subject string `json:"subject,omitempty"`
	// Time is the commit time.
	Time time.Time `json:"time"`
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

// Point is one commit of a series.
type Point struct {
	// Head is the commit.
	Head Revision `json:"head"`
	// Change is the change against the baseline (0.05 is +5%).
	Change float64 `json:"change"`
	// CI is its confidence interval.
	CI benchstats.Interval `json:"ci"`
	// Threshold is the dynamic threshold the point was judged against.
	Threshold float64 `json:"threshold"`
}

// Detection is one detection, with its commit.
type Detection struct {
	// Detection is the detection; its fields are inlined in JSON.
	detect.Detection
	// Commit is the hash of the point's commit.
	Commit string `json:"commit"`
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
		hs := Series{ID: s.ID, Unit: s.Unit, Machine: s.Machine.String(), SettingsHash: s.SettingsHash,
			InitialThreshold: ds.InitialThreshold, ThresholdSource: ds.ThresholdSource, Detections: []Detection{},
			Skipped: s.Skipped}
		for i, p := range s.Points {
			hs.Points = append(hs.Points, Point{
				Head:   Revision{Commit: p.Head.Commit, Subject: p.Head.Subject, Time: p.Head.Time},
				Change: p.Change, CI: p.CI, Threshold: ds.Thresholds[i],
			})
		}
		for _, det := range ds.Detections {
			hs.Detections = append(hs.Detections, Detection{Detection: det, Commit: s.Points[det.Index].Head.Commit})
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

// WriteText writes d as text: per series a table of its commits
// (change, interval, threshold, marks) and its detections in words.
func WriteText(w io.Writer, d *Document) error {
	ew := &render.ErrWriter{W: w}
	fmt.Fprintf(ew, "mbopt: benchmark history against baseline %s", short(d.Baseline.Commit))
	if d.Baseline.Subject != "" {
		fmt.Fprintf(ew, " (%s)", plot.MiddleEllipsis(textutil.FirstLine(d.Baseline.Subject), subjectRunes))
	}
	fmt.Fprintf(ew, ", %d series\n", len(d.Series))
	for _, s := range d.Series {
		fmt.Fprintf(ew, "\n%s  %s\n", s.ID, s.Unit)
		fmt.Fprintf(ew, "  %s, settings %s; initial threshold %s (%s)\n", s.Machine, s.SettingsHash, render.Pct(s.InitialThreshold), s.ThresholdSource)
		t := &render.Table{}
		t.Row("#", "commit", "change", "ci", "threshold", "marks")
		marks := pointMarks(s)
		for i, p := range s.Points {
			commit := short(p.Head.Commit)
			if sub := textutil.FirstLine(p.Head.Subject); sub != "" {
				commit += " " + plot.MiddleEllipsis(sub, subjectRunes)
			}
			t.Row(fmt.Sprint(i), commit, render.SignedPct(p.Change),
				fmt.Sprintf("[%s, %s]", render.SignedPct(p.CI.Low), render.SignedPct(p.CI.High)),
				render.Pct(p.Threshold), marks[i])
		}
		t.Write(ew)
		for _, sk := range s.Skipped {
			fmt.Fprintf(ew, "  left out: %s (comparison %d): %s\n", short(sk.Head.Commit), sk.Comparison, sk.Reason)
		}
		if len(s.Detections) == 0 {
			fmt.Fprintln(ew, "  no detections")
			continue
		}
		for _, det := range s.Detections {
			fmt.Fprintf(ew, "  %d %s: %s\n", det.Index, short(det.Commit), detectionText(det.Detection))
		}
	}
	if len(d.Series) > 0 {
		legend := "J jump, T trend, F fixed-value bound"
		if d.Options.Runs(detect.EDivisive) {
			legend += ", E E-divisive change point"
		}
		fmt.Fprintf(ew, "\n(marks: %s; capital definite, small potential)\n", legend)
	}
	return ew.Err
}

// WriteMarkdown writes d as Markdown: a summary table of every
// series and a section per series with detections.
func WriteMarkdown(w io.Writer, d *Document) error {
	ew := &render.ErrWriter{W: w}
	p := func(format string, args ...any) { fmt.Fprintf(ew, format+"\n", args...) }
	p("## Benchmark history against %s", render.MarkdownCode(short(d.Baseline.Commit)))
	p("")
	if len(d.Series) == 0 {
		p("No series.")
		return ew.Err
	}
	p("| benchmark | unit | commits | last change | definite | potential |")
	p("| --- | --- | ---: | ---: | ---: | ---: |")
	for _, s := range d.Series {
		def, pot := 0, 0
		for _, det := range s.Detections {
			if det.Definite {
				def++
			} else {
				pot++
			}
		}
		last := ""
		if n := len(s.Points); n > 0 {
			last = render.SignedPct(s.Points[n-1].Change)
		}
		p("| %s | %s | %d | %s | %d | %d |", render.MarkdownCode(s.ID), render.EscapeMarkdown(s.Unit), len(s.Points), last, def, pot)
	}
	for _, s := range d.Series {
		if len(s.Detections) == 0 {
			continue
		}
		p("")
		p("### %s (%s)", render.MarkdownCode(s.ID), render.EscapeMarkdown(s.Unit))
		p("")
		p("%s, initial threshold %s (%s).", render.EscapeMarkdown(s.Machine), render.Pct(s.InitialThreshold), s.ThresholdSource)
		p("")
		for _, det := range s.Detections {
			p("- %s %s: %s", render.MarkdownCode(short(det.Commit)), render.EscapeMarkdown(textutil.FirstLine(s.Points[det.Index].Head.Subject)), detectionText(det.Detection))
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
// calibration quantile and the initial threshold.
func WriteCalibrationText(w io.Writer, insts []history.Instability, cal *history.Calibration) error {
	ew := &render.ErrWriter{W: w}
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
		t.Row(in.ID, in.Unit, fmt.Sprint(len(in.Widths)), render.Pct(benchstats.Median(in.Widths)), render.Pct(maxOf(in.Widths)), render.Pct(own.Instability), render.Pct(th))
	}
	t.Write(ew)
	fmt.Fprintf(ew, "\nsuite threshold (benchmarks without A/A results): %s, the %.0fth percentile of the benchmarks' median instabilities\n", render.Pct(cal.Suite), 100*q)
	return ew.Err
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs[1:] {
		m = max(m, x)
	}
	return m
}
