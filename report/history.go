package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/detect"
	"github.com/mbopt/mbopt/history"
	"github.com/mbopt/mbopt/internal/textutil"
)

// HistorySchemaVersion is the version of the JSON form of a
// [HistoryDocument].
const HistorySchemaVersion = 1

// HistoryDocument is what `mbopt history` shows: each benchmark's series
// against one baseline and the detections in it. Its JSON field names are
// stable.
type HistoryDocument struct {
	// Schema is HistorySchemaVersion.
	Schema int `json:"schema"`
	// Baseline is the base revision of every series.
	Baseline HistoryRevision `json:"baseline"`
	// Options are the detectors' parameters; each series' initial
	// threshold may differ (see HistorySeries.InitialThreshold).
	Options detect.Options `json:"options"`
	// Series are in the order of history.Set: by id, unit, machine and
	// settings hash.
	Series []HistorySeries `json:"series"`
}

// HistoryRevision is a commit of a series.
type HistoryRevision struct {
	// Commit is the full hash.
	Commit string `json:"commit"`
	// Subject is the commit message's first line.
	Subject string `json:"subject,omitempty"`
	// Time is the commit time.
	Time time.Time `json:"time"`
}

// Threshold sources of a [HistorySeries].
const (
	// ThresholdCalibrated: the benchmark's own A/A results.
	ThresholdCalibrated = "calibrated"
	// ThresholdSuite: the suite threshold of the A/A results of others.
	ThresholdSuite = "suite"
	// ThresholdGiven: set by the caller (the --initial-threshold flag).
	ThresholdGiven = "given"
	// ThresholdDefault: detect.DefaultOptions, no A/A result stored.
	ThresholdDefault = "default"
)

// HistorySeries is one benchmark's series and its detections.
type HistorySeries struct {
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
	// ThresholdSource is one of the Threshold… constants.
	ThresholdSource string `json:"threshold_source"`
	// Points are the commits in order.
	Points []HistoryPoint `json:"points"`
	// Detections are ordered as package detect orders them.
	Detections []HistoryDetection `json:"detections"`
}

// HistoryPoint is one commit of a series.
type HistoryPoint struct {
	// Head is the commit.
	Head HistoryRevision `json:"head"`
	// Change is the change against the baseline (0.05 is +5%).
	Change float64 `json:"change"`
	// CI is its confidence interval.
	CI benchstats.Interval `json:"ci"`
	// Threshold is the dynamic threshold the point was judged against.
	Threshold float64 `json:"threshold"`
}

// HistoryDetection is one detection, with its commit.
type HistoryDetection struct {
	// Detection is the detection; its fields are inlined in JSON.
	detect.Detection
	// Commit is the hash of the point's commit.
	Commit string `json:"commit"`
}

// InitialThresholdFunc returns a series' initial threshold and its source
// (one of the Threshold… constants), or an error.
type InitialThresholdFunc func(s history.Series) (float64, string, error)

// NewHistoryDocument runs the detectors over every series of set with
// opt, taking each series' initial threshold from initial (nil: opt's,
// with source "default").
func NewHistoryDocument(set *history.Set, opt detect.Options, initial InitialThresholdFunc) (*HistoryDocument, error) {
	d := &HistoryDocument{
		Schema:   HistorySchemaVersion,
		Baseline: HistoryRevision{Commit: set.Baseline.Commit, Subject: set.Baseline.Subject, Time: set.Baseline.Time},
		Options:  opt,
		Series:   []HistorySeries{},
	}
	for _, s := range set.Series {
		o := opt
		src := ThresholdDefault
		if initial != nil {
			t, from, err := initial(s)
			if err != nil {
				return nil, err
			}
			o.InitialThreshold, src = t, from
		}
		res, err := detect.Detect(s.DetectPoints(), o)
		if err != nil {
			return nil, fmt.Errorf("report: %s (%s): %w", s.ID, s.Unit, err)
		}
		hs := HistorySeries{ID: s.ID, Unit: s.Unit, Machine: s.Machine.String(), SettingsHash: s.SettingsHash,
			InitialThreshold: o.InitialThreshold, ThresholdSource: src, Detections: []HistoryDetection{}}
		for i, p := range s.Points {
			hs.Points = append(hs.Points, HistoryPoint{
				Head:   HistoryRevision{Commit: p.Head.Commit, Subject: p.Head.Subject, Time: p.Head.Time},
				Change: p.Change, CI: p.CI, Threshold: res.Thresholds[i],
			})
		}
		for _, det := range res.Detections {
			hs.Detections = append(hs.Detections, HistoryDetection{Detection: det, Commit: s.Points[det.Index].Head.Commit})
		}
		d.Series = append(d.Series, hs)
	}
	return d, nil
}

// WriteHistoryJSON writes d as indented JSON.
func WriteHistoryJSON(w io.Writer, d *HistoryDocument) error {
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
	s := fmt.Sprintf("%s %s %s %s", kind, det.Kind, det.Direction, signedPct(det.Change))
	switch det.Kind {
	case detect.Fixed:
		s += fmt.Sprintf(" (bound %s)", signedPct(det.Threshold))
	case detect.Trend:
		s += fmt.Sprintf(" (threshold %s, against %d commits)", pct(det.Threshold), det.Window)
	default:
		s += fmt.Sprintf(" (threshold %s)", pct(det.Threshold))
	}
	return s
}

// pointMarks returns, per point, the short marks of its detections:
// "J" definite jump, "j" potential jump, "T"/"t" trend, "F"/"f" fixed,
// "E"/"e" E-divisive.
func pointMarks(s HistorySeries) []string {
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

// WriteHistoryText writes d as text: per series a table of its commits
// (change, interval, threshold, marks) and its detections in words.
func WriteHistoryText(w io.Writer, d *HistoryDocument) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "mbopt: benchmark history against baseline %s", short(d.Baseline.Commit))
	if d.Baseline.Subject != "" {
		fmt.Fprintf(ew, " (%s)", middleEllipsis(textutil.FirstLine(d.Baseline.Subject), subjectRunes))
	}
	fmt.Fprintf(ew, ", %d series\n", len(d.Series))
	for _, s := range d.Series {
		fmt.Fprintf(ew, "\n%s  %s\n", s.ID, s.Unit)
		fmt.Fprintf(ew, "  %s, settings %s; initial threshold %s (%s)\n", s.Machine, s.SettingsHash, pct(s.InitialThreshold), s.ThresholdSource)
		t := &table{}
		t.row("#", "commit", "change", "ci", "threshold", "marks")
		marks := pointMarks(s)
		for i, p := range s.Points {
			commit := short(p.Head.Commit)
			if sub := textutil.FirstLine(p.Head.Subject); sub != "" {
				commit += " " + middleEllipsis(sub, subjectRunes)
			}
			t.row(fmt.Sprint(i), commit, signedPct(p.Change),
				fmt.Sprintf("[%s, %s]", signedPct(p.CI.Low), signedPct(p.CI.High)),
				pct(p.Threshold), marks[i])
		}
		t.write(ew)
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
	return ew.err
}

// WriteHistoryMarkdown writes d as Markdown: a summary table of every
// series and a section per series with detections.
func WriteHistoryMarkdown(w io.Writer, d *HistoryDocument) error {
	ew := &errWriter{w: w}
	p := func(format string, args ...any) { fmt.Fprintf(ew, format+"\n", args...) }
	p("## Benchmark history against %s", mdCode(short(d.Baseline.Commit)))
	p("")
	if len(d.Series) == 0 {
		p("No series.")
		return ew.err
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
			last = signedPct(s.Points[n-1].Change)
		}
		p("| %s | %s | %d | %s | %d | %d |", mdCode(s.ID), mdEscape(s.Unit), len(s.Points), last, def, pot)
	}
	for _, s := range d.Series {
		if len(s.Detections) == 0 {
			continue
		}
		p("")
		p("### %s (%s)", mdCode(s.ID), mdEscape(s.Unit))
		p("")
		p("%s, initial threshold %s (%s).", mdEscape(s.Machine), pct(s.InitialThreshold), s.ThresholdSource)
		p("")
		for _, det := range s.Detections {
			p("- %s %s: %s", mdCode(short(det.Commit)), mdEscape(textutil.FirstLine(s.Points[det.Index].Head.Subject)), detectionText(det.Detection))
		}
	}
	return ew.err
}

// CalibrationDocument is the JSON form of an A/A calibration: the
// instabilities and the thresholds derived from them.
type CalibrationDocument struct {
	// Schema is HistorySchemaVersion.
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
	return enc.Encode(CalibrationDocument{Schema: HistorySchemaVersion, Instabilities: insts, Calibration: cal})
}

// WriteCalibrationText writes insts and cal as a table: per benchmark and
// unit its number of A/A results, median and largest instability, the
// calibration quantile and the initial threshold.
func WriteCalibrationText(w io.Writer, insts []history.Instability, cal *history.Calibration) error {
	ew := &errWriter{w: w}
	q := cal.Options.Quantile
	fmt.Fprintf(ew, "mbopt: A/A instabilities of %s, initial thresholds = max(%s, %.2f × the %.0fth percentile)\n\n",
		textutil.Plural(len(insts), "benchmark"), pct(cal.Options.Floor), cal.Options.Factor, 100*q)
	t := &table{}
	t.row("benchmark", "unit", "runs", "median", "max", fmt.Sprintf("p%.0f", 100*q), "threshold")
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
		t.row(in.ID, in.Unit, fmt.Sprint(len(in.Widths)), pct(benchstats.Median(in.Widths)), pct(maxOf(in.Widths)), pct(own.Instability), pct(th))
	}
	t.write(ew)
	fmt.Fprintf(ew, "\nsuite threshold (benchmarks without A/A results): %s, the %.0fth percentile of the benchmarks' median instabilities\n", pct(cal.Suite), 100*q)
	return ew.err
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs[1:] {
		m = max(m, x)
	}
	return m
}
