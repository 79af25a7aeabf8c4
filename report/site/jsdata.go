package site

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"golang.org/x/perf/benchfmt"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
)

// This file holds the data the pages' scripts read: each series and
// commit as JSON, numbers written short.

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// num is a number written with 6 significant digits.
type num float64

// MarshalJSON implements json.Marshaler.
func (n num) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(n), 'g', 6, 64), nil
}

// pct is a relative change written in percent with 3 decimals.
type pct float64

// MarshalJSON implements json.Marshaler.
func (p pct) MarshalJSON() ([]byte, error) {
	v := math.Round(float64(p)*1e5) / 1e3
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.AppendFloat(nil, v, 'f', -1, 64), nil
}

// The JSON the scripts read; short names keep 500 series × 200 commits
// small (docs: the page weight).
type (
	jsIndex struct {
		Title     string      `json:"title"`
		Metric    string      `json:"metric"`
		Baseline  jsCommit    `json:"baseline"`
		Commits   jsCommits   `json:"commits"`
		CommitURL string      `json:"commitURL"`
		ChunkSize int         `json:"chunkSize"`
		Series    []jsSummary `json:"series"`
		App       *jsApp      `json:"app,omitempty"`
		// Bridges are [from, to] baselines; Bases the baselines other
		// than Baseline that a point's "ag" indexes (from 1).
		Bridges [][2]jsCommit `json:"bridges,omitempty"`
		Bases   []jsCommit    `json:"bases,omitempty"`
	}
	jsCommit struct {
		Hash    string `json:"hash"`
		Date    string `json:"date"`
		Subject string `json:"subject"`
	}
	jsCommits struct {
		Hash    []string `json:"hash"`
		Date    []string `json:"date"`
		Subject []string `json:"subject"`
	}
	jsSummary struct {
		ID         string   `json:"id"`
		Pkg        string   `json:"pkg"`
		Name       string   `json:"name"`
		Unit       string   `json:"unit"`
		Metric     string   `json:"metric,omitempty"`
		Machine    string   `json:"machine"`
		Settings   string   `json:"settings"`
		Page       string   `json:"page"`
		Impact     *pct     `json:"impact,omitempty"` // the reference impact: no estimate
		N          int      `json:"n"`
		Last       pct      `json:"last"`
		LastCommit int      `json:"lastCommit"`
		Det        [][4]any `json:"det"` // commit, kind, definite, change
		// DetEst is, per detection, null or its point's estimated
		// application impact: change, low, high, likely none; omitted
		// when no detection has one.
		DetEst []any `json:"de,omitempty"`
		// Est is the latest estimated application impact: change, low,
		// high, likely none, commit.
		Est          []any `json:"est,omitempty"`
		App          bool  `json:"app,omitempty"`
		HigherBetter bool  `json:"hb,omitempty"` // the unit's higher values are better (MB/s)
	}
	jsSeries struct {
		C       []int    `json:"c"`
		V       []pct    `json:"v"`
		Lo      []pct    `json:"lo"`
		Hi      []pct    `json:"hi"`
		Th      []pct    `json:"th"`
		Verdict string   `json:"vd"` // one letter a point: u, i, r (potential), I, R (definite)
		VTh     []pct    `json:"vt,omitempty"`
		Base    []num    `json:"b,omitempty"`
		Head    []num    `json:"h,omitempty"`
		Against []int    `json:"ag,omitempty"` // per point: 0, the baseline, or 1 + an index of Bases
		Det     [][6]any `json:"d"`            // point, kind, definite, change, threshold, window
		Init    pct      `json:"init"`
		Source  string   `json:"src"`
		// AppEst is, per point, null or its estimated application impact:
		// change, low, high, likely none, basis, culprits; omitted when no
		// point has one.
		AppEst []any `json:"ae,omitempty"`
	}
	jsApp struct {
		Name   string   `json:"name"`
		Unit   string   `json:"unit"`
		Source string   `json:"source"`
		C      []int    `json:"c"`
		V      []num    `json:"v"`
		Lo     []num    `json:"lo"`
		Hi     []num    `json:"hi"`
		Det    [][3]any `json:"det,omitempty"` // commit, kind, definite
	}
)

func jsCommitOf(c Commit) jsCommit {
	return jsCommit{Hash: c.Hash, Date: c.Time.UTC().Format(dateLayout), Subject: c.Subject}
}

var verdictLetters = map[benchstats.Verdict]byte{
	benchstats.Unchanged:            'u',
	benchstats.PotentialImprovement: 'i',
	benchstats.PotentialRegression:  'r',
	benchstats.DefiniteImprovement:  'I',
	benchstats.DefiniteRegression:   'R',
}

func jsSeriesOf(s Series, against map[string]int) jsSeries {
	js := jsSeries{Init: pct(s.InitialThreshold), Source: s.ThresholdSource, Det: [][6]any{}}
	known, judged := false, false
	verdicts := make([]byte, len(s.Points))
	for i, p := range s.Points {
		js.C = append(js.C, p.Commit)
		js.V = append(js.V, pct(p.Change))
		js.Lo = append(js.Lo, pct(p.CI.Low))
		js.Hi = append(js.Hi, pct(p.CI.High))
		js.Th = append(js.Th, pct(p.Threshold))
		verdicts[i] = cmp.Or(verdictLetters[p.Verdict], 'u')
		known = known || p.Base != 0 || p.Head != 0
		judged = judged || p.VerdictThreshold != 0
	}
	if judged {
		for _, p := range s.Points {
			js.VTh = append(js.VTh, pct(p.VerdictThreshold))
		}
	}
	js.Verdict = string(verdicts)
	if known {
		for _, p := range s.Points {
			js.Base = append(js.Base, num(p.Base))
			js.Head = append(js.Head, num(p.Head))
		}
	}
	if slices.ContainsFunc(s.Points, func(p Point) bool { return p.Against != "" }) {
		for _, p := range s.Points {
			js.Against = append(js.Against, against[p.Against])
		}
	}
	for _, det := range s.Detections {
		js.Det = append(js.Det, [6]any{det.Index, string(det.Kind), bit(det.Definite), pct(det.Change), pct(det.Threshold), det.Window})
	}
	if _, ok := latestEstimate(s); ok {
		for _, p := range s.Points {
			var e any
			if a := p.App; a != nil {
				e = []any{pct(a.Change), pct(a.CI.Low), pct(a.CI.High), bit(a.NoImpact), a.Basis, a.Culprits}
			}
			js.AppEst = append(js.AppEst, e)
		}
	}
	return js
}

// jsIndexOf returns the overview of d as index.js holds it, without its
// series: the commits, the application's series and the bridges with the
// baselines they connect. against maps each of those baselines to its
// index in Bases, plus one.
func jsIndexOf(d *Data, opt Options) (idx jsIndex, against map[string]int) {
	idx = jsIndex{Title: d.Title, Metric: d.Metric, Baseline: jsCommitOf(d.Baseline), CommitURL: opt.CommitURL, ChunkSize: ChunkSize, Series: []jsSummary{}}
	for _, c := range d.Commits {
		idx.Commits.Hash = append(idx.Commits.Hash, c.Hash)
		idx.Commits.Date = append(idx.Commits.Date, c.Time.UTC().Format(dateLayout))
		idx.Commits.Subject = append(idx.Commits.Subject, c.Subject)
	}
	if a := d.Application; a != nil {
		ja := &jsApp{Name: a.Name, Unit: a.Unit, Source: a.Source}
		for _, p := range a.Points {
			ja.C = append(ja.C, p.Commit)
			ja.V = append(ja.V, num(p.Value))
			ja.Lo = append(ja.Lo, num(p.CI.Low))
			ja.Hi = append(ja.Hi, num(p.CI.High))
			if p.Detected {
				ja.Det = append(ja.Det, [3]any{p.Commit, string(cmp.Or(p.Kind, detect.Jump)), bit(p.Definite)})
			}
		}
		idx.App = ja
	}
	against = map[string]int{} // a bridge's baseline → its index in idx.Bases, +1
	for _, b := range d.Bridges {
		idx.Bridges = append(idx.Bridges, [2]jsCommit{jsCommitOf(b.From), jsCommitOf(b.To)})
		for _, c := range []Commit{b.From, b.To} {
			if _, ok := against[c.Hash]; !ok && c.Hash != d.Baseline.Hash {
				idx.Bases = append(idx.Bases, jsCommitOf(c))
				against[c.Hash] = len(idx.Bases)
			}
		}
	}
	return idx, against
}

// jsSummaryOf returns the summary of series s in index.js, whose page is
// at page.
func jsSummaryOf(s Series, page string) jsSummary {
	sum := jsSummary{ID: s.ID, Pkg: s.Package, Name: s.Name, Unit: s.Unit, Metric: s.Metric, Machine: s.Machine, Settings: s.Settings,
		Page: page, N: len(s.Points), Det: [][4]any{}}
	sum.App = s.Application
	sum.HigherBetter = benchfmt.UnitMetadataMap(nil).GetBetter(s.Unit) > 0
	if im := s.Impact; im != nil {
		h := pct(im.Reference)
		sum.Impact = &h
	}
	if j, ok := latestEstimate(s); ok {
		p := s.Points[j]
		sum.Est = []any{pct(p.App.Change), pct(p.App.CI.Low), pct(p.App.CI.High), bit(p.App.NoImpact), p.Commit}
	}
	if n := len(s.Points); n > 0 {
		sum.Last = pct(s.Points[n-1].Change)
		sum.LastCommit = s.Points[n-1].Commit
	}
	estimated := false
	for _, det := range s.Detections {
		p := s.Points[det.Index]
		sum.Det = append(sum.Det, [4]any{p.Commit, string(det.Kind), bit(det.Definite), pct(det.Change)})
		var e any
		if p.App != nil {
			e, estimated = []any{pct(p.App.Change), pct(p.App.CI.Low), pct(p.App.CI.High), bit(p.App.NoImpact)}, true
		}
		sum.DetEst = append(sum.DetEst, e)
	}
	if !estimated {
		sum.DetEst = nil
	}
	return sum
}
