package site

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/mbopt/mbopt/compare/benchstats"
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
